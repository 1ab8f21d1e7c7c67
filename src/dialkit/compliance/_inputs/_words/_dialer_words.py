"""The words dialers write in a call's ``status`` and ``disposition`` whose meaning is one
value of the contract or one fact the rules read (issue 98, item 3), each with the dialer
or the standard that writes it.

The contract's statuses and dispositions (:class:`~dialkit.contract.CallStatus`,
:class:`~dialkit.contract.CallDisposition`) have no word for some facts a dialer records
and the rules need, so the vocabulary adds them as values beside the contract's
(:data:`STATUS_FACTS`, :data:`DISPOSITION_FACTS`): a call abandoned (answered, and no agent
came: abandonment counts it whatever the join time or the proxy says), an answering
machine's (no live answer), and an attempt no one answered (busy, no answer, failed,
cancelled: no live answer either; ``short_ring`` judges the dialer's cancel and its
no-answer, not a busy line or a failure). A word of :data:`WORDS` is read as its value in
each column it names one for (``NA``: the status ``no-answer``, the disposition
``no_answer``; ``DNC``: a disposition only, the person's request).
"""

from __future__ import annotations

from dataclasses import dataclass

ABANDONED = "abandoned"
"""A status or disposition of an answered call no agent took up in time: abandoned."""
ANSWERING_MACHINE = "answering_machine"
"""A disposition of a call a machine answered (the status's word is the contract's
``voicemail``): no live answer."""
CANCELED = "canceled"
"""A status or disposition of a call the caller cancelled before an answer (Twilio's call
status, Asterisk's ``CANCEL``): no live answer, and the dialer's hang-up."""
STATUS_FACTS = (ABANDONED, CANCELED)
"""The statuses the vocabulary adds to the contract's."""
DISPOSITION_FACTS = (ABANDONED, ANSWERING_MACHINE, "busy", "no_answer", "failed", CANCELED)
"""The dispositions the vocabulary adds to the contract's: besides the above, the outcomes
of an attempt no one answered, as the contract's statuses name them (``busy``,
``no_answer``, ``failed``)."""


@dataclass(frozen=True)
class Word:
    """A word as a dialer writes it, its value as a ``status`` and as a ``disposition``
    (None: no word of that column), and ``source``: who writes it, and what it says."""

    written: str
    status: str | None
    disposition: str | None
    source: str


_VICI = "VICIdial (its statuses list, VICIDIAL_statuses.txt): "
_DIAL = "Asterisk Dial() DIALSTATUS: "
WORDS = (
    Word("DROP", ABANDONED, ABANDONED, _VICI + "Agent Not Available, dropped while the "
         "customer waited for an agent"),
    Word("PDROP", ABANDONED, ABANDONED, _VICI + "Outbound Pre-Routing Drop, hung up the "
         "instant the answer signal was received"),
    Word("Dropped", ABANDONED, ABANDONED, "dialers' exports (issue 98)"),
    Word("Abandon", ABANDONED, ABANDONED, "dialers' exports (issue 98)"),
    Word("Silent", ABANDONED, ABANDONED, "Ofcom's silent call (its persistent-misuse "
         "statement): an answered call on which the person hears nothing"),
    Word("A", "voicemail", ANSWERING_MACHINE, _VICI + "Answering Machine (agent-defined)"),
    Word("AA", "voicemail", ANSWERING_MACHINE, _VICI + "Answering Machine Auto"),
    Word("AM", "voicemail", ANSWERING_MACHINE, _VICI + "Answering Machine Sent to Mesg"),
    Word("AL", "voicemail", ANSWERING_MACHINE, _VICI + "Answering Machine Msg Played"),
    Word("AFAX", "voicemail", ANSWERING_MACHINE, _VICI + "Fax Machine Auto: a machine, "
         "no live person"),
    Word("Answering Machine", "voicemail", ANSWERING_MACHINE,
         "NICE CXone's system outcome; dialers' exports"),
    Word("AMD", "voicemail", ANSWERING_MACHINE, "dialers' exports: answering machine "
         "detection found a machine"),
    Word("MACHINE", "voicemail", ANSWERING_MACHINE, "Asterisk AMD() AMDSTATUS"),
    Word("B", "busy", "busy", _VICI + "Busy (agent-defined)"),
    Word("AB", "busy", "busy", _VICI + "Busy Auto, carrier-received"),
    Word("NA", "no-answer", "no_answer", _VICI + "No Answer AutoDial"),
    Word("N", "no-answer", "no_answer", _VICI + "No Answer (agent-defined)"),
    Word("NOANSWER", "no-answer", "no_answer", _DIAL + "the called party did not answer"),
    Word("DC", "failed", "failed", _VICI + "Disconnected Number (agent-defined)"),
    Word("ADC", "failed", "failed", _VICI + "Disconnected Number Auto, carrier-received"),
    Word("CONGESTION", "failed", "failed", _DIAL + "congestion routing the call"),
    Word("CHANUNAVAIL", "failed", "failed", _DIAL + "the called peer not reachable"),
    Word("CANCEL", CANCELED, CANCELED, _DIAL + "cancelled before the call was answered"),
    Word("Cancelled", CANCELED, CANCELED, "British spelling of Twilio's canceled"),
    Word("ANSWER", "completed", None, _DIAL + "the call was answered"),
    Word("DNC", None, "do_not_call", _VICI + "DO NOT CALL, the lead put on its DNC list"),
    Word("DNCL", None, "do_not_call", _VICI + "DO NOT CALL Hopper Match, a number on its "
         "DNC list (read as a request: the number stays on the account's own list)"),
    Word("NI", None, "not_interested", _VICI + "Not Interested"),
    Word("CALLBK", None, "callback_requested", _VICI + "Call Back"),
)
"""Every dialer's word the vocabulary reads beyond the contract's values and the facts'
own names (``Busy``, ``No Answer``, ``Abandoned``, ``Canceled`` are those, in any case)."""


def words_of(column: str) -> dict[str, str]:
    """The words of :data:`WORDS` that name a value of ``column`` (``status`` or
    ``disposition``), each as written, to that value."""
    meant = ((word.written, getattr(word, column)) for word in WORDS)
    return {written: value for written, value in meant if value is not None}
