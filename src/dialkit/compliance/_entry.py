"""``dialkit.compliance.audit``: the caller's options read once, then the audit run on
pandas (:func:`._run.audit_frames`) or, for Dask's inputs, on Dask (:mod:`._dask`).

This module is the only one that reaches for the Dask path, so that the pandas path's
modules, which the Dask path is made of, import nothing of it.
"""

from __future__ import annotations

import warnings
from collections.abc import Collection
from typing import Any, Literal, Unpack, overload

import pandas as pd

from .._parallel._partitions import Lazy, is_dask, is_dataset, on_dask, read_whole
from .._places._blocked import blocked_regions
from .._utils._base_error import AuditInputError
from .._utils._choices import AUDIT_INPUTS, SWITCH
from .._utils._moments import period_bound, period_text, utc_moment
from ..frames import as_pandas, maybe_pandas
from ._inputs._columns import checked_dataset
from ._inputs._headers import named_inputs
from ._inputs._keywords import AuditInputs, Bound, inputs_of
from ._inputs._prepared import (
    lists_given,
    prepared_consents,
    prepared_contracts,
    prepared_reassigned,
    prepared_texts,
    unanswered,
    with_emergencies,
)
from ._inputs._vocabulary import checked_values
from ._part import Options
from ._report._audit_report import AuditReport
from ._run import audit_frames

CALLS = "client.frames.calls(), an export read by read_export, or a Parquet dataset's path"
"""Where the calls audited come from, as a refusal names them."""
_FRAMES = tuple(each.name for each in AUDIT_INPUTS if each.columns)
"""The inputs that are frames, whose columns ``mapping`` may name in another tool's
export."""
_FACTS = {each.name: each for each in AUDIT_INPUTS if each.kind == SWITCH}
"""The account's facts (``nonprofit``, ``charity``, ``newspaper``), each read by its
declaration: ``True`` or ``False``, anything else refused naming it, as ``next_allowed``,
``upcoming`` and ``GuardSettings`` refuse it (``"no"`` is true to Python, and read so it
would lift a list's rule from every call)."""


@overload
def audit(calls: pd.DataFrame, *, compute: Literal[True] = ...,
          **inputs: Unpack[AuditInputs]) -> AuditReport: ...
@overload
def audit(calls: pd.DataFrame, *, compute: bool,
          **inputs: Unpack[AuditInputs]) -> AuditReport | Lazy[AuditReport]: ...
def audit(calls: pd.DataFrame, *, compute: bool = True,
          **inputs: Unpack[AuditInputs]) -> AuditReport | Lazy[AuditReport]:
    """Audit what the account did against ``rules``.

    Args:
        calls: Calls (``client.frames.calls()`` or an export with its columns);
            only outbound calls can be findings. Also a Dask DataFrame, or the path of a
            Parquet dataset (``dialkit.frames.export``'s ``calls`` folder): see below.
            An optional ``prerecorded`` (true/false) marks calls with an artificial or
            prerecorded voice, which need a written consent (``no_written_consent``).
        compute: For Dask's input: ``False`` returns a ``dask.delayed`` object whose
            ``compute()`` gives the report (typed ``Lazy[AuditReport]``); pandas' input
            is audited at once either way, so ``compute=False`` is typed as either.

    Keyword Args:
        leads: Leads, for the lead rules and to name each call's lead.
        dnc: DNC results (``client.frames.dnc(...)``; a ``listed_at`` column, where
            the data have it, dates each listing).
        verified_caller_ids: The account's verified caller ids; without them
            ``unverified_caller_id`` does not run.
        blocked_countries: Countries calls must not reach: ISO 3166 codes (any
            case) or names, as a country cell is read, in a list or one comma-separated text
            (``["KP", "IR"]``, ``"KP, IR"``, ``["North Korea", "Iran"]``), read as
            :func:`dialkit.leads.clean` reads them.
        rules: The law: ``US`` (the federal rule and each state's, by where the person
            called is), ``UK``, ``CA`` (the same table: each call by the law of the place
            called; they differ in abandonment's period), ``US_FEDERAL`` (the federal
            rule alone, for US numbers); or a ``POLICY(...)`` alone, judging every call
            by the policy and none by law.
        policy: The account's own stricter rule, added to the law's and reported as
            policy: ``POLICY("quiet hours", window=(time(9), time(20)))`` or
            ``HOUSE_RULES`` (08:00-21:00 for every call, at most 3 calls a day: what the
            presets once applied as if law). A call the law forbids is a law
            finding whatever the policy says.
        campaign_id: Audit this campaign only, or these (a list of ids).
        as_of: When the audit looks from (for the DNC scrub age; a time of the evidence
            after it, a listing, a check, a consent's or a reassigned answer's, is read
            the stricter way, never as permission); default now. An ISO
            8601 date or time or a ``datetime``: a time of day with its zone (one
            without is refused, never taken as UTC); a date alone starts at midnight UTC.
        campaigns: The old name of ``campaign_id``, kept for one release: it warns.
        consents: The account's consent records, a row each: ``phone`` or ``lead_id``,
            ``kind`` (``written``: prior express written consent or a signed written
            agreement; ``ebr``: an established business relationship, from its purchase
            or, where ``relationship`` (optional) is ``inquiry``, its inquiry; ``oral``),
            ``given_at`` and ``revoked_at`` (may be empty). A record the list's
            law names exempts a call to a listed number while it stands; a revocation puts
            the number on the account's own do-not-call list; ``no_written_consent`` runs.
            Without them no exemption is considered, and the report's notes say so.
        reassigned: The reassigned numbers database's answers: ``phone``, ``asked_at``,
            ``answer`` (``yes``, ``no``, ``no_data``); a ``yes`` voids the number's
            consents given before it was asked (47 CFR 64.1200(m)).
        texts: The account's texts (``client.frames.sms_reports()``: ``message_id``,
            ``to``, ``created_at``; ``status`` and ``error_code`` where given), audited as
            the calls they are in law (47 CFR 64.1200(e)) by the rules of a contact:
            calling hours, the caps (counted with the calls to the same person),
            Do-Not-Call, blocked countries, consent; not by ``caller_id``, ``short_ring``
            or abandonment. Each finding's ``channel`` says ``call`` or ``text``; the
            report counts texts apart (:attr:`AuditReport.texts_audited`). With Dask's
            input too, each text shuffled to the calls of its person.
        since: Report the calls placed from then on: an ISO 8601 date or time or a
            ``datetime`` (a time with its zone; a date starts at midnight UTC),
            ``"today"``, ``"yesterday"`` (from midnight UTC), ``"now"``, or a length of
            time back from now (``"30d"``, ``"12h"``), as :func:`load` reads it. Every call
            given is still judged as history: a call of the period is judged against the
            calls before it (a cap's 24 hours, a ``do_not_call`` disposition, a person's
            earlier calls) and its campaign's abandonment period counted from the
            campaign's first call given, so that an audit of a week and one of a month
            agree on every call they share. Lead findings are judged at ``as_of`` as ever.
        until: Report the calls placed before then (a date: before that day begins), in
            the same forms.
        nonprofit: Whether the account is a tax-exempt nonprofit calling for itself: its
            calls are no telephone solicitations (47 U.S.C. 227(a)(4)(C)), so the US
            National Do Not Call Registry's rule does not judge them. Default False, and
            the notes say so where a registry finding rests on it. A lead's optional
            ``line`` (``business`` or ``residential``) says whether its number is a
            business line, which the registry does not protect; absent, residential.
        charity: Whether the calls are made by or for a registered charity (Income Tax
            Act 248(1), narrower than ``nonprofit``) to solicit a donation: Canada's
            National DNCL does not bind them (Telecommunications Act 41.7(1)(a)).
        newspaper: Whether the calls are made by or for a newspaper of general
            circulation to solicit subscriptions (41.7(1)(g); some states' lists too).
        contracts: The written contracts with the persons called (``phone`` or
            ``lead_id``, ``signed_at``, ``ends_at``: empty while in force): a contract
            lifts the lists whose law names it (Canada's DNCL, 41.7(2)) while in force
            and as long after as that law counts it (docs/compliance.md).
        emergencies: The states of emergency declared where the calls went:
            ``area`` (a state: ``US-LA``, ``LA``, ``Louisiana``), ``starts_at``, ``ends_at``
            (empty while in force) and optionally ``declaration`` (what declared it). A
            call to a state whose law forbids solicitation during one (Louisiana, New
            York) while one is declared there is a ``calling_hours`` finding citing that
            law; without them, the notes name such states the calls reached. Read into
            the rules (:meth:`Rules.with_emergencies`), as ``next_allowed``, ``upcoming``
            and the client's guard read them.
        values: What the words of another tool's export mean, per named column: a
            column (``disposition``; ``calls.status`` or ``leads.status`` where a bare
            name names several) to each word as written and the value it means,
            ``{"disposition": {"Sale Made": "sale", "DNC": "do_not_call"}}`` (None: an
            empty cell). Every named column is read through one vocabulary
            (docs/compliance.md, "How another tool's values are read"): the contract's
            words in any case, with spaces, underscores and hyphens alike (``Do Not
            Call``, ``BUSY``), then these. A call's value understood neither way is named
            in the notes (:attr:`AuditReport.unread`) and its rows held out of the rules
            it decides (an unknown direction: the call is not audited); a record's
            (leads, consents, reassigned, DNC results) is refused, naming it.
        mapping: Which column of another tool's export holds a column the audit reads:
            the column (``to_number``; ``calls.created_at`` where a bare name names
            several inputs' columns) to the export's header, ``{"to_number": "Dialed",
            "dnc.checked_at": "Scrub Date"}``. Without it, a column named as the audit
            names it is read, in any case and punctuation (``Campaign ID``), and else one
            named as dialers, CRMs and DNC vendors name it (``Phone Number``, ``Call
            Start``, ``Line Type``: docs/compliance.md, "How another tool's exports are
            read"), where exactly one is; ``notes["columns"]`` says what was read as what.

    With a Dask frame among the inputs, or a dataset's path while Dask is installed, the
    audit runs on Dask (on the ``dask.distributed`` client in use, if any), with the same
    report: each number's calls, leads and DNC results are shuffled into one partition
    and audited there by the rules below, and the answered calls of each campaign into
    one for the abandonment rate. Without Dask, a path is read whole with pandas.

    Each frame may also be a Polars DataFrame or a pyarrow Table, audited as the pandas
    frame of the same rows would be.

    Raises:
        TypeError: A keyword that is none of the judges' inputs (naming those it reads),
            or an input it does not read (saying why, as its declaration does).
        TypeError: A frame is neither pandas', Polars' nor a pyarrow Table.
        AuditInputError: A frame lacks a column the audit needs or holds a time that is
            not one; a ``blocked_countries`` value names no country.
        ValueError: ``as_of`` is not a time (``"30"``, ``"yesterday"``); ``since`` or
            ``until`` is none of their forms (an :class:`AuditInputError`); ``nonprofit``,
            ``charity`` or ``newspaper`` neither True nor False (an ``InputError`` naming
            it); ``values`` names no named column, or maps a word to no value of it;
            ``mapping`` names no column the audit reads, or a header the input lacks;
            two columns of an input could each be one it reads (an ``AuditInputError``).
    """
    calls, leads, dnc, options = read_inputs("audit", calls, inputs)
    _check_datasets({"calls": calls, "leads": leads, "dnc": dnc})
    if on_dask((calls, leads, dnc), compute):
        from ._dask._audit import audit as on_dask_audit  # for Dask's inputs only
        answer: AuditReport | Lazy[AuditReport] = on_dask_audit(calls, leads, dnc, options,
                                                                compute=compute)
        return answer
    return audit_frames(as_pandas(read_whole(calls), "calls", CALLS),
                        maybe_pandas(read_whole(leads), "leads"),
                        maybe_pandas(read_whole(dnc), "dnc"), options)


def read_inputs(judge: str, calls: Any, inputs: AuditInputs) -> tuple[Any, Any, Any, Options]:
    """The calls, leads and DNC results as ``judge`` (``audit``, ``Monitor``) reads them
    (another tool's headers named, Polars' and Arrow's DNC results as pandas), and the
    :class:`Options` of every other input, read once: the audit reads them for each run,
    the monitor once for all its runs (``as_of`` is its own, each run's)."""
    given = inputs_of(judge, inputs)
    values = checked_values(given["values"])
    named, read_as = named_inputs(
        {"calls": calls, **{name: given[name] for name in _FRAMES}}, given["mapping"])
    calls, leads, dnc, texts, consents, reassigned, emergencies, contracts = named.values()
    rules, policy = given["rules"], given["policy"]
    if policy is not None:
        try:
            rules = rules.with_policy(policy)
        except ValueError as error:
            raise AuditInputError(str(error)) from None
    rules = with_emergencies(rules, _whole(emergencies, "emergencies"))
    if not is_dask(dnc) and not is_dataset(dnc):  # Polars or Arrow: read once, here
        dnc = maybe_pandas(dnc, "dnc")
    verified, as_of = given["verified_caller_ids"], given.get("as_of")
    options = Options(rules=rules, blocked=_regions(given["blocked_countries"]),
                      verified=None if verified is None else frozenset(verified),
                      campaigns=_campaigns(given["campaign_id"], given["campaigns"]),
                      moment=utc_moment(pd.Timestamp.now(tz="UTC") if as_of is None
                                        else as_of, "as_of"),
                      consents=prepared_consents(_whole(consents, "consents"),
                                                 leads is not None, values),
                      reassigned=prepared_reassigned(_whole(reassigned, "reassigned"),
                                                     values),
                      texts=prepared_texts(_whole(texts, "texts")),
                      nonprofit=_fact(given, "nonprofit"), charity=_fact(given, "charity"),
                      newspaper=_fact(given, "newspaper"),
                      contracts=prepared_contracts(_whole(contracts, "contracts"),
                                                   leads is not None),
                      dnc_lists=lists_given(dnc, values), dnc_unanswered=unanswered(dnc),
                      values=values, read_as=read_as,
                      **_window(given["since"], given["until"]))
    return calls, leads, dnc, options


def _fact(given: dict[str, Any], name: str) -> bool:
    """The account's fact ``name`` as given to the audit, read by its declaration."""
    return _FACTS[name].checked_switch(given[name], "audit")


def _window(since: Bound, until: Bound) -> dict[str, Any]:
    """The :class:`Options` of the period asked: its bounds in UTC, read from one moment,
    and the period in words; a bound that is none is refused as an
    :class:`AuditInputError` naming it."""
    now = pd.Timestamp.now(tz="UTC")
    try:
        bounds = {name: (value, None if value is None else period_bound(value, name, now=now))
                  for name, value in (("since", since), ("until", until))}
    except ValueError as error:
        raise AuditInputError(str(error)) from None
    return {"period": period_text(**bounds) or None,
            **{name: moment for name, (_, moment) in bounds.items()}}


def _whole(frame: Any, name: str) -> pd.DataFrame | None:
    """A frame every part of the audit gets whole (the consent records, the reassigned
    answers): a Dask frame or a dataset computed, a Polars frame or Arrow table as pandas."""
    if frame is None:
        return None
    if hasattr(frame, "compute") and not isinstance(frame, pd.DataFrame):
        frame = frame.compute()
    return maybe_pandas(read_whole(frame), name)


def _check_datasets(frames: dict[str, Any]) -> None:
    """Each dataset's files checked against each other before Dask or pyarrow reads them
    (:func:`._columns.checked_dataset`), refused as the frame's :class:`AuditInputError`."""
    for name, source in frames.items():
        if is_dataset(source):
            try:
                checked_dataset(source)
            except ValueError as error:
                raise AuditInputError(str(error), frame=name) from None


def _regions(blocked: Collection[str]) -> tuple[str, ...]:
    """``blocked_countries`` as region codes, read as ``leads.clean`` reads them; a value
    that names no country is refused as an :class:`AuditInputError`."""
    try:
        return blocked_regions(blocked)
    except ValueError as error:
        raise AuditInputError(str(error)) from None


def _campaigns(campaign_id: str | Collection[str] | None,
               campaigns: Collection[str] | None) -> frozenset[str] | None:
    """The campaigns audited, as a set of ids (``None``: every campaign); ``campaigns=``,
    the name before ``campaign_id=``, still works for a release, and warns."""
    if campaigns is not None:
        if campaign_id is not None:
            raise AuditInputError("pass campaign_id= alone: campaigns= is its old name")
        warnings.warn("audit(campaigns=...) is now audit(campaign_id=...)",
                      DeprecationWarning, stacklevel=3)
        campaign_id = campaigns
    if campaign_id is None:
        return None
    return frozenset([campaign_id] if isinstance(campaign_id, str) else campaign_id)
