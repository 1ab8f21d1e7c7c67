"""Where a campaign loses its leads, when people answer, and what the agents log.

Pure functions over the frames of ``client.frames`` (or exports with their
columns: Parquet, CSV), each returning a tidy DataFrame; a plot for each, which
takes that frame and an optional ``ax`` and returns the Axes; and a notebook
explorer. ``docs/analytics.md`` gives every definition.

Examples:
    >>> import dialkit.analytics
    >>> client = dialkit.Client.sandbox()
    >>> frames = dialkit.analytics.load(client)
    >>> sorted(frames)
    ['appointments', 'callbacks', 'calls', 'leads']
    >>> table = dialkit.analytics.funnel(**frames)
    >>> dialkit.analytics.plot_funnel(table).get_title()
    'Funnel: ... campaigns, ... leads'
    >>> client.close()
"""

from typing import TYPE_CHECKING

from .._places._states import state_of
from .._utils import _lazy
from .._utils._base_error import AnalyticsInputError
from ._compare import compare
from ._funnel import CONVERSATION_SECONDS, STAGES, biggest_loss, funnel
from ._inputs._inputs import POSITIVE
from ._inputs._load import load
from ._inputs._local import WEEKDAYS
from ._mix import disposition_mix, hangup_causes
from ._plots._plots import plot_answer_heatmap, plot_attempts, plot_disposition_mix, plot_funnel
from ._rates import answer_rates, attempts_to_contact
from ._stats import two_proportion_test, wilson_interval

if TYPE_CHECKING:
    from ._plots._explore import Explorer, explore

# The explorer needs ipywidgets (dialkit[notebook]): imported when first used, so the
# analytics themselves need only the core.
__getattr__, __dir__ = _lazy.exports(__name__)

__all__ = [
    "AnalyticsInputError",
    "CONVERSATION_SECONDS",
    "Explorer",
    "POSITIVE",
    "STAGES",
    "WEEKDAYS",
    "answer_rates",
    "attempts_to_contact",
    "biggest_loss",
    "compare",
    "disposition_mix",
    "explore",
    "funnel",
    "hangup_causes",
    "load",
    "plot_answer_heatmap",
    "plot_attempts",
    "plot_disposition_mix",
    "plot_funnel",
    "state_of",
    "two_proportion_test",
    "wilson_interval",
]
