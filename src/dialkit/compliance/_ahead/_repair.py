"""``repair``: a plan that fixes what :func:`._upcoming.upcoming` finds, and its carrying out.

A pending callback that would break a rule is moved to the next moment the law allows
from its due time (or to the best lawful hour, :mod:`._best_hour`), judged by
:func:`._when.next_allowed`'s own code: the hours of the place called, and for a callback
over a cap the account's calls. A move is only ever later than the callback's due time,
so a past call it was not over a cap with cannot put it over one. A callback whose
number is on a Do-Not-Call list that binds the call (the finding's, or a check made now,
judged by the audit with what :func:`upcoming` was told lifts a list's rule: the account's
facts, its consents and contracts, a lead's business line) is cancelled: no moment is
allowed. A callback is moved to no moment inside a declared emergency it was told of.
What cannot be moved is left alone, with the reason: a lead's next
attempt (the contract lets a client change a lead's name, email and custom fields only,
``PATCH /v1/leads/{lead_id}``), a callback of a blocked country or with no allowed
moment within :data:`._when.HORIZON_DAYS` days, and a callback :func:`upcoming` found
not judged (``no_law_held``: no law of its country is held, so no moment is known to be
allowed, and a move would pass it off as judged).

Carrying out sends each action with an ``Idempotency-Key`` made from its plan row (the
callback, the action, the due and the new moment): a second run of the same plan, or a
run after a crash half way, sends the same keys, and the service answers a key it has
seen with its first answer (the contract keeps keys 24 hours), so nothing is done twice.
The cached callbacks and leads (``client.frames``) are dropped once something was sent:
they changed, and the next :func:`upcoming` reads them afresh.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, Unpack

import numpy as np
import pandas as pd

from ..._utils._base_error import AuditInputError, InputError
from ..._utils._choices import AUDIT_INPUTS, RECORDS, SWITCH
from ..._utils._moments import duration, utc_times
from ...errors import ApiError, ContactForbiddenError
from ...frames import pandas_frames
from .._entry import audit
from .._inputs._keywords import AuditInputs, inputs_of
from .._inputs._prepared import with_emergencies
from .._rules._rules import Rules
from ._unjudged import NO_LAW_HELD
from ._when import HORIZON_DAYS, best_of, hours_at, next_allowed, with_policy
from ._when_past import FACTS, NOT_YET_MADE, checked_facts

if TYPE_CHECKING:
    from ...client import Client

STRATEGIES = ("next_allowed", "best")
REPAIR_TOLD = tuple(each.name for each in AUDIT_INPUTS
                    if "repair" in each.readers and each.kind in (RECORDS, SWITCH))
"""The account's records and facts :func:`repair` reads, by the declaration's names, as
:func:`upcoming` was told them: what lifts a list's rule (a callback on a list that does not
bind it is moved, not cancelled) and the emergencies (no callback is moved into one)."""
_CLOSED = ("dnc", "completed")
"""The lead statuses the dialer does not call again: a callback of such a lead is not moved
by a plan made before its lead came to them."""
ACTIONS = ("reschedule", "cancel", "leave")
PLAN_COLUMNS = ("action", "kind", "callback_id", "lead_id", "campaign_id", "phone", "at", "new_at",
                "new_local_time", "timezone", "rules", "reason", "idempotency_key", "status")
"""The columns of :func:`repair`'s plan (``expected_rate`` after ``timezone`` with
``strategy="best"``)."""
_FOUND = ("rule", "kind", "call_id", "lead_id", "phone", "at", "evidence")
_BLOCKED = ("the account blocks calls to this country, so no moment is allowed: cancel "
            "it (client.callbacks.cancel) or leave it")
_UNJUDGED = ("no law of the country called is held, so no moment is judged allowed and a "
             "move would read as one: cancel it (client.callbacks.cancel), or accept the "
             "country and plan again")
_RISK = ("a risk, not a breach: the law may forbid the call though nothing given says it "
         "does, and no move changes that: settle what the finding names (a state list's "
         "scrub, given with the DNC results; a list whose words on its exemptions were not "
         "read, judged by its law), then plan again")
_ATTEMPT = ("a lead's next attempt is the service's to set: a client can change a lead's "
            "name, email and custom fields only (PATCH /v1/leads/{lead_id})")


def repair(found: pd.DataFrame, client: Client | None, *,
           strategy: Literal["next_allowed", "best"] = "next_allowed", dry_run: bool = True,
           prefer: pd.DataFrame | None = None,
           frames: Mapping[str, pd.DataFrame] | None = None,
           horizon: str | pd.Timedelta = "7D", **inputs: Unpack[AuditInputs]) -> pd.DataFrame:
    """A plan that fixes the scheduled calls :func:`upcoming` found, carried out unless
    ``dry_run``.

    Args:
        found: :func:`upcoming`'s answer.
        client: The account the callbacks are of: the DNC list is checked now for the
            callbacks to move, its calls read for a callback over a cap, and the plan
            carried out through it. ``None`` with ``frames`` and ``dry_run``: plan only.
        strategy: ``"next_allowed"``: move a callback to the first moment allowed from
            its due time; ``"best"``: to the allowed moment with the highest expected
            answer rate within ``horizon`` of it (needs ``prefer``).
        dry_run: Only plan (the default); ``False`` carries the plan out, each action
            once however often it is run.
        prefer: ``dialkit.analytics.answer_rates(client.frames.calls())``, for ``"best"``.
        frames: ``calls``, ``texts``, ``dnc`` and ``leads`` already loaded (``dnc``:
            every number of ``found``), read instead of asking ``client``.
        horizon: How far from its due time a callback's best hour is looked for.

    Keyword Args:
        rules: The law, as for :func:`upcoming` (default ``US``).
        policy: The account's own stricter rule, as given to :func:`upcoming`.
        emergencies: The declared states of emergency, as given to :func:`upcoming`: no
            callback is moved into one where the law of the place called forbids calls
            during it.
        consents: The account's consent records, as given to :func:`upcoming`. This
            and the five after it are what lifts a list's rule from a call: a
            callback whose number is listed now is cancelled only where the audit, told
            the same, would find the call (``dnc_call``) at its new moment; else it is
            moved, as a nonprofit's callback to a number on the national registry is.
        reassigned: The reassigned numbers database's answers, as for :func:`upcoming`.
        contracts: The written contracts with the persons called, as for :func:`upcoming`.
        nonprofit: As for :func:`upcoming`.
        charity: As for :func:`upcoming`.
        newspaper: As for :func:`upcoming`.

    Returns:
        One row per callback or lead's next attempt found, soonest first: ``action``
        (``reschedule``, ``cancel`` or ``leave``), ``kind``, ``callback_id`` (None for a
        next attempt), ``lead_id``, ``campaign_id`` (the lead's, as ``found`` has it),
        ``phone``, ``at`` (due), ``new_at`` (UTC) and
        ``new_local_time`` and ``timezone`` (the recipient's clock) for a move, ``rules``
        (those it breaks, comma-joined), ``reason``, ``idempotency_key`` and ``status``
        (``planned``, ``left``; once carried out ``done``, ``failed: ...`` or
        ``skipped: ...``; a run again sends the failed ones with the same keys). A
        callback found ``no_law_held`` (its country's law is not held) is left, saying
        why: no moment is judged allowed for it. A
        callback is acted on only while it is as the plan saw it, read just before: still
        pending, still due at ``at`` (one moved since, by someone else, keeps its new
        time), and for a move, its lead not ``dnc`` or ``completed`` since.

    Raises:
        TypeError: A keyword that is none of the judges' inputs (naming those it reads),
            or an input it does not read (saying why, as its declaration does).
        AuditInputError: ``found`` is not :func:`upcoming`'s answer, or ``strategy``
            ``"best"`` has no ``prefer``; an unknown ``strategy`` is a ``ValueError``.

    Examples:
        A callback due on a Sunday in Utah, which bars Sunday calls (with a client:
        ``repair(upcoming(client), client)``):

        >>> import pandas as pd
        >>> from dialkit.compliance import repair
        >>> found = pd.DataFrame({
        ...     "rule": ["calling_hours"], "kind": ["callback"], "call_id": ["cb_1"],
        ...     "lead_id": ["lead_1"], "phone": ["+18015550123"],
        ...     "at": [pd.Timestamp("2026-11-22T19:00Z")], "evidence": ["due Sun 12:00"]})
        >>> listed = pd.DataFrame({"phone": ["+18015550123"], "listed": [False]})
        >>> plan = repair(found, None, frames={"dnc": listed})
        >>> plan.loc[0, ["action", "new_local_time", "timezone"]].tolist()
        ['reschedule', '2026-11-23 08:00:00', 'America/Denver']
    """
    given = inputs_of("repair", inputs)
    _asked(found, strategy, prefer, client, frames, dry_run)
    frames = None if frames is None else pandas_frames(frames)
    rules = with_emergencies(with_policy(given["rules"], given["policy"]), given["emergencies"])
    lifting = {name: given[name] for name in ("consents", "reassigned", "contracts")} | (
        checked_facts("repair", **{name: given[name] for name in FACTS}))
    plan = _units(found)
    attempts = (plan["kind"] != "callback").to_numpy()
    if attempts.any():
        plan.loc[attempts, "reason"] = _pauses(plan[attempts], _campaign_names(client, frames))
    moving = plan["action"] == "reschedule"
    if moving.any():
        plan = _moved(plan, moving.to_numpy(), client, frames or {}, rules,
                      prefer if strategy == "best" else None, horizon, lifting)
    plan["idempotency_key"] = _keys(plan)
    plan["status"] = np.where(plan["action"] == "leave", "left", "planned")
    if not dry_run and client is not None and (plan["action"] != "leave").any():
        stale = _changed_since(client, plan)
        plan["status"] = [stale.get(row.callback_id) or _carried_out(client, row)
                          for row in plan.itertuples()]
        for changed in ("callbacks", "leads"):  # the next upcoming() reads them afresh
            client.cache.clear(changed)
    columns = [*PLAN_COLUMNS]
    if strategy == "best":
        columns.insert(columns.index("timezone") + 1, "expected_rate")
    return plan.reindex(columns=columns).astype({"action": pd.CategoricalDtype(ACTIONS)})


def _asked(found: pd.DataFrame, strategy: str, prefer: pd.DataFrame | None,
           client: Client | None, frames: Mapping[str, pd.DataFrame] | None,
           dry_run: bool) -> None:
    """Refuse what :func:`repair` cannot use, naming the argument."""
    if strategy not in STRATEGIES:
        raise InputError(f"strategy={strategy!r}: pass 'next_allowed' or 'best'")
    if not isinstance(found, pd.DataFrame) or any(c not in found for c in _FOUND):
        raise AuditInputError("repair() takes upcoming()'s answer as found: "
                              "repair(upcoming(client), client)")
    if strategy == "best" and prefer is None:
        raise AuditInputError("strategy='best' needs the account's answer rates: pass "
                              "prefer=dialkit.analytics.answer_rates(client.frames.calls())")
    if client is None and (frames is None or not dry_run):
        raise AuditInputError("repair() needs the client, or frames= to plan a dry run "
                              "without one")


def _units(found: pd.DataFrame) -> pd.DataFrame:
    """One row per callback (or lead's next attempt) found, whatever the number of its
    findings, with the action its rules call for and why."""
    kind = found["kind"].astype(object)
    unit = found["call_id"].to_numpy(object, copy=True)
    attempt = (kind != "callback").to_numpy()  # the due moment as text: only where needed
    unit[attempt] = (found["lead_id"].astype(object)[attempt] + " "
                     + found["at"][attempt].astype(str)).to_numpy(object)
    rule = found["rule"].astype(str)
    risk = (rule == "dnc_call").to_numpy() & (  # found made by hand: no basis, no risk
        found["basis"].astype(str) == "risk").to_numpy() if "basis" in found else np.zeros(
        len(found), bool)
    said = found.assign(unit=unit, said=rule + ": " + found["evidence"].astype(str),
                        campaign_id=found.get("campaign_id"),  # found made by hand: none
                        listing=(rule == "dnc_call").to_numpy() & ~risk, acted=~risk)
    plan = said.drop_duplicates("unit").set_index("unit")[
        ["kind", "call_id", "lead_id", "campaign_id", "phone", "at", "rule", "said"]].set_axis(
        ["kind", "callback_id", "lead_id", "campaign_id", "phone", "at", "rules", "reason"],
        axis=1).join(said.groupby("unit", sort=False)[["listing", "acted"]].any())
    many = said[said["unit"].duplicated(keep=False)]  # few: joined one by one
    if len(many):
        joined = many.groupby("unit", sort=False).agg(
            rules=("rule", lambda r: ", ".join(sorted(set(r)))), reason=("said", "; ".join))
        plan.loc[joined.index, ["rules", "reason"]] = joined.to_numpy()
    plan = plan.sort_values("at", kind="stable").reset_index(drop=True)
    plan["kind"] = plan["kind"].astype(object)
    plan["callback_id"] = plan["callback_id"].where(plan["kind"] == "callback", None)
    callback = (plan["kind"] == "callback").to_numpy()
    blocked = plan["rules"].str.contains("blocked_country").to_numpy()
    unjudged = plan["rules"].str.contains(NO_LAW_HELD).to_numpy()
    listing, acted = plan.pop("listing").to_numpy(bool), plan.pop("acted").to_numpy(bool)
    action = np.select([~callback, listing, blocked | unjudged, ~acted],
                       ["leave", "cancel", "leave", "leave"], "reschedule")
    reason = np.select(  # a next attempt's: :func:`_pauses`
        [callback & listing, callback & blocked, callback & unjudged, callback & ~acted],
        ["the number is on a Do-Not-Call list, so no moment is allowed (" + plan["reason"]
         + ")", _BLOCKED + " (" + plan["reason"] + ")",
         _UNJUDGED + " (" + plan["reason"] + ")",
         _RISK + " (" + plan["reason"] + ")"], plan["reason"])
    return plan.assign(action=action, reason=reason, new_at=pd.Series(
        pd.NaT, index=plan.index, dtype="datetime64[ns, UTC]"), new_local_time=None,
        timezone=None, expected_rate=np.nan)


def _campaign_names(client: Client | None,
                    frames: Mapping[str, pd.DataFrame] | None) -> dict[str, str]:
    """The account's campaign names by id (``frames["campaigns"]`` where given), to name
    the campaign a plan's line asks to pause; none for a key that may not read them."""
    from ..._shown._pages import campaign_names
    from .._inputs._load import readable_campaign_names

    campaigns = (frames or {}).get("campaigns")
    if campaigns is None and client is not None:
        return readable_campaign_names(client) or {}
    return campaign_names(campaigns)


def _pauses(attempts: pd.DataFrame, names: Mapping[str, str]) -> list[str]:
    """Why a lead's next attempt is left, and what stops it (the line once said
    "pause its campaign (client.campaigns.pause)", naming no campaign): the campaign by
    id and name, and the call that pauses it."""
    said = []
    for campaign, reason in zip(attempts["campaign_id"], attempts["reason"], strict=True):
        if isinstance(campaign, str) and campaign:
            name = names.get(campaign)
            which = f"campaign {campaign}" + (f' "{name}"' if name else "")
            call = f'client.campaigns.pause("{campaign}")'
        else:  # findings made by hand, without their campaign
            which, call = "its campaign", "client.campaigns.pause(campaign_id)"
        said.append(f"{_ATTEMPT} ({reason}); pause {which} until the law allows the call: "
                    f"{call}")
    return said


def _moved(plan: pd.DataFrame, moving: np.ndarray, client: Client | None,
           frames: Mapping[str, pd.DataFrame], rules: Rules,
           prefer: pd.DataFrame | None, horizon: str | pd.Timedelta,
           lifting: Mapping[str, Any]) -> pd.DataFrame:
    """The callbacks to move, each given its new moment: cancelled instead where its
    number is on a list that binds the call now (:func:`_bound`), left where no moment
    is allowed within the days looked at."""
    rows = np.flatnonzero(moving)
    phones = plan["phone"].iloc[rows].astype(object).reset_index(drop=True)
    dnc = frames.get("dnc")
    if dnc is None and client is not None:
        dnc = client.frames.dnc(sorted(set(phones)), refresh="full")
    moments = utc_times(plan["at"].iloc[rows], "plan.at").dt.tz_convert(None).to_numpy(
        "datetime64[ns]")
    answer = hours_at(phones, moments, rules, None, every_zone=False)
    capped = plan["rules"].iloc[rows].str.contains("call_frequency").to_numpy()
    if capped.any():
        answer = _freed(answer, capped, plan.iloc[rows], moments, client, frames, rules)
    if prefer is not None:
        best = best_of(answer["next_allowed_at"], phones, moments, rules, None, prefer,
                       duration(horizon, "horizon"))
        answer = answer.assign(next_allowed_at=best["best_at"],
                               next_local_time=best["best_local_time"],
                               expected_rate=best["best_rate"])
    moved = plan.iloc[rows].assign(at=answer["next_allowed_at"].fillna(
        plan["at"].iloc[rows].reset_index(drop=True)).to_numpy())
    return _placed(plan, rows, answer, _bound(moved, dnc, client, frames, rules, lifting))


def _bound(moved: pd.DataFrame, dnc: pd.DataFrame | None, client: Client | None,
           frames: Mapping[str, pd.DataFrame], rules: Rules,
           lifting: Mapping[str, Any]) -> np.ndarray:
    """Which callbacks to move the audit would find a call to a listed number
    (``dnc_call``) of at their moment (``at``: the new one, else the due one), judged by
    the DNC results read now and what lifts a list's rule (``lifting``: the account's
    facts, consents, contracts, reassigned answers, and the leads' lines, read from
    ``frames["leads"]`` or the account's leads of the callbacks' campaigns). Only the
    callbacks whose number is listed at all are judged: few, and the leads are read only
    for them."""
    bound = np.zeros(len(moved), bool)
    if dnc is None:
        return bound
    listed = moved["phone"].isin(set(dnc.loc[dnc["listed"].astype(bool), "phone"])).to_numpy()
    if not listed.any():
        return bound
    leads = frames.get("leads")
    if leads is None and client is not None:
        campaigns = sorted({str(c) for c in moved["campaign_id"].dropna()})
        leads = client.frames.leads(campaign_id=campaigns or None)
    judged = moved[listed]
    calls = pd.DataFrame({
        "id": judged["callback_id"].astype(object).to_numpy(),
        "to_number": judged["phone"].astype(object).to_numpy(),
        "created_at": utc_times(judged["at"], "plan.at").to_numpy(),
        "campaign_id": judged["campaign_id"].astype(object).to_numpy(), **NOT_YET_MADE})
    findings = audit(calls, leads=leads, dnc=dnc, rules=rules, **lifting).findings
    listing = (findings["rule"] == "dnc_call") & (findings["basis"] != "risk")
    cancelled = set(findings.loc[listing, "call_id"].astype(object))
    bound[np.flatnonzero(listed)] = calls["id"].isin(cancelled).to_numpy()
    return bound


def _freed(answer: pd.DataFrame, capped: np.ndarray, moved: pd.DataFrame,
           moments: np.ndarray, client: Client | None, frames: Mapping[str, pd.DataFrame],
           rules: Rules) -> pd.DataFrame:
    """``answer`` with the callbacks over a cap given the moment the cap frees them and
    the hours allow, as :func:`next_allowed` judges it with the account's calls and texts
    (a text is a call in law, and :func:`upcoming` counted it), each asked as its lead
    (``moved``: the callbacks' plan rows), whose campaign is the call's subject and tells
    a text's; as its number where findings made by hand name no campaign, the subject
    then its latest call's (asked once per due moment: such callbacks are few)."""
    from .._inputs._load import loaded_texts

    calls, texts = frames.get("calls"), frames.get("texts")
    if calls is None and client is not None:
        calls = client.frames.calls()
    leads = pd.DataFrame({"id": moved["lead_id"].astype(object).to_numpy(),
                          "campaign_id": moved["campaign_id"].astype(object).to_numpy(),
                          "phone": moved["phone"].astype(object).to_numpy(),
                          "status": "callback"})
    asked = leads if leads["campaign_id"].notna().all() else leads["phone"]
    if texts is None and client is not None:
        texts = loaded_texts(client, set(leads["phone"][capped]))
    answer = answer.copy()
    rows = pd.Series(np.flatnonzero(capped))
    for moment, same in rows.groupby(moments[capped]):
        judged = next_allowed(asked.iloc[same.to_numpy()], pd.Timestamp(moment, tz="UTC"),
                              rules=rules, calls=calls, texts=texts)
        for column in ("next_allowed_at", "next_local_time", "timezone", "forbidden_by"):
            answer.loc[same.to_numpy(), column] = judged[column].to_numpy()
    return answer


def _placed(plan: pd.DataFrame, rows: np.ndarray, answer: pd.DataFrame,
            listed: np.ndarray) -> pd.DataFrame:
    """The plan with each moved callback's new moment, or its other action and why."""
    plan = plan.copy()
    new_at = answer["next_allowed_at"]
    none = new_at.isna().to_numpy()
    plan.loc[rows, "new_at"] = new_at.to_numpy()
    plan.loc[rows, "new_local_time"] = answer["next_local_time"].astype(object).to_numpy()
    plan.loc[rows, "timezone"] = answer["timezone"].astype(object).to_numpy()
    if "expected_rate" in answer:
        plan.loc[rows, "expected_rate"] = answer["expected_rate"].to_numpy()
    plan.loc[rows[none], "action"] = "leave"
    plan.loc[rows[none], "reason"] = (f"no moment within {HORIZON_DAYS} days is allowed ("
                                      + plan.loc[rows[none], "reason"] + ")")
    plan.loc[rows[listed], "action"] = "cancel"
    plan.loc[rows[listed], "reason"] = ("the number is on a Do-Not-Call list now, so no "
                                        "moment is allowed")
    cleared = plan["action"] != "reschedule"
    plan.loc[cleared, ["new_at"]] = pd.NaT
    plan.loc[cleared, ["new_local_time", "timezone"]] = None
    return plan


def _keys(plan: pd.DataFrame) -> list[str]:
    """Each plan row's Idempotency-Key, made from the row (the same row, the same key):
    the action, the callback, its due and its new moment; none for what is left alone."""
    at, new_at = (np.datetime_as_string(utc_times(plan[c], f"plan.{c}").to_numpy(
        "datetime64[ns]")) for c in ("at", "new_at"))
    return ["" if action == "leave" else "repair-" + hashlib.sha256(
        f"{action}|{callback}|{due}|{moved}".encode()).hexdigest()[:40]
        for action, callback, due, moved in zip(plan["action"], plan["callback_id"], at,
                                                new_at, strict=True)]


def _changed_since(client: Client, plan: pd.DataFrame) -> dict[str, str]:
    """Each callback to act on that is no longer as the plan saw it, read now, with the
    status that says so (``skipped: ...``): moved since by someone else (their newer
    schedule is kept, not overwritten by a stale plan), or to be moved while its lead is
    now ``dnc`` or ``completed``. One moved to the plan's own new moment was moved by an
    earlier run of the plan, whose key the service answers again; one no longer pending
    is sent as planned, for the service refuses it (409 ``callback_not_pending``). Its
    lead and its campaign's pending callbacks are read once each."""
    acted = plan[plan["action"] != "leave"]
    leads = {lead_id: client.leads.get(lead_id) for lead_id in set(acted["lead_id"])}
    campaigns = {str(lead.campaign_id) for lead in leads.values() if lead.campaign_id}
    pending = {callback.id: callback for campaign in campaigns
               for callback in client.callbacks.list(campaign, status="pending")}
    changed = {}
    for row in acted.itertuples():
        now, lead = pending.get(row.callback_id), leads[row.lead_id]
        due = None if now is None else pd.Timestamp(now.scheduled_at)
        if due is not None and due != pd.Timestamp(row.at) and due != row.new_at:
            changed[row.callback_id] = (
                f"skipped: moved since the plan was made (due {due:%Y-%m-%d %H:%M} UTC now, "
                f"the plan saw {pd.Timestamp(row.at):%Y-%m-%d %H:%M} UTC): run upcoming() "
                "and repair() again")
        elif row.action == "reschedule" and lead.status in _CLOSED:
            changed[row.callback_id] = (f"skipped: its lead is {lead.status} now, so the "
                                        "plan's move may not be wanted: plan again")
    return changed


def _carried_out(client: Client, row: Any) -> str:
    """Send one plan row (a row of ``itertuples``); its status: ``done``, ``left`` or
    ``failed: ...`` (sent again, with the same key, by the next run)."""
    action, key = row.action, row.idempotency_key
    callback = str(row.callback_id)
    try:
        if action == "reschedule":
            client.callbacks.reschedule(
                callback, idempotency_key=key, lead_id=str(row.lead_id),
                scheduled_at=row.new_at.to_pydatetime())
        elif action == "cancel":
            client.callbacks.cancel(callback, idempotency_key=key)
        else:
            return "left"
    except ApiError as error:
        return f"failed: {error.code or type(error).__name__} ({error})"
    except ContactForbiddenError as error:  # the guard judged the moment anew: said, not sent
        return f"failed: {error.rule} ({error})"
    return "done"
