"""The guard on every operation that reaches a person.

The operations the contract marks as calling or texting a person
(:data:`dialkit.contract.CONTACTS`: a click-to-call, a text, which is a call under
47 U.S.C. 227(b), a lead added with ``dial_now``, a callback scheduled or moved, a campaign
resumed) ask it before they send, each through one entry, :meth:`Guard.tool`, which reads
the request where the mark says it names the person (:mod:`._guard_asked`): the client's
methods and ``dialkit mcp serve``'s tool calls alike. It gathers the evidence over the API
(a live ``dnc.check`` of the number, cached :data:`DNC_CACHE_SECONDS`; the account's
calls and texts back over the caps' period, newest first, kept for the next contact:
:mod:`._guard_contacts`) and the moment of the contact (the service's now, from its
``Date`` header, or ``scheduled_at``), and asks the law's one judge,
:class:`dialkit.compliance.LawJudge`, which judges by ``next_allowed``, the audit's own code.
The client may not import the compliance layer, so the guard asks for the judge by its
interface, and the ``dialkit`` package wires the compliance layer's in
(:mod:`dialkit._utils._wiring`): one judge, never a copy of it here.

A forbidden contact is not sent: :class:`~dialkit.errors.ContactForbiddenError` names the
rule, its citation, the evidence and the next allowed moment. So is a contact to a country
whose law the rules do not hold (``no_law_held``: nothing judged it), unless the settings
accept its country (``GuardSettings(accept_unjudged=...)``). ``override="reason"`` sends
it anyway, recorded in :attr:`Guard.overrides` and logged at WARNING.

A contact is judged and sent as one step: the operation passes a ``turn`` (an
:class:`~contextlib.ExitStack` it sends inside), and the number's lock
(:mod:`._number_locks`) is held in it from the judgment until the service answers, so
the judgment of a contact counts every contact judged before it, in any thread, any
client of the key in the process, any process sharing the cache folder.
"""

from __future__ import annotations

import hashlib
import itertools
import logging
import threading
import time
from collections.abc import Mapping
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from .._files._cache_folder import cache_root
from .._files._private import private_dir
from .._guarding import GuardSettings, Judge, LiveDnc, ResumeJudgment, Verdict, address_state
from .._utils._base_error import InputError
from .._utils._moments import held, iso_datetime
from .._utils._wiring import law_judge
from ..contract import CHANGED_BY, CONTACTS, Call, SmsMessage
from ..errors import ApiTimeoutError
from ._guard_asked import asked
from ._guard_contacts import PLACES_CALLS, RecentContacts
from ._http._deadline import seconds_left
from ._http._transport import Answer, Transport
from ._http._transport import Call as SentCall
from ._number_locks import Held, NumberLocks, trusted
from ._resources._callbacks import Callbacks
from ._resources._campaigns import Campaigns
from ._resources._dnc import Dnc
from ._resources._leads import Leads

logger = logging.getLogger("dialkit.client.guard")

DNC_CACHE_SECONDS = 60.0
"""How long a number's live DNC answer is reused: the calls of one notebook cell, not a
day's (a number listed since is refused by the service's own check too)."""
MOST = 0.5
"""A resume is refused without an override when more than this share of the campaign's
diallable leads may not be called now."""
DIALLABLE = ("new", "contacted", "callback")
"""The lead statuses a running campaign dials."""
_VERDICTS_KEPT = 4096
_LISTING_WRITES = frozenset(name for name, lists in CHANGED_BY.items() if "dnc" in lists)
"""The writes that can put a number on a Do-Not-Call list."""


@dataclass(frozen=True)
class Override:
    """A contact sent with ``override="reason"``: what the guard said of it (None:
    nothing forbade it) and when (the service's time)."""

    operation: str
    phone: str | None
    at: datetime
    reason: str
    verdict: Verdict | None


class Guard:
    """One client's guard: its settings, its caches and what it let through.

    Attributes:
        overrides: Each contact sent with ``override=``, oldest first.
        resumes: Each resume's :class:`ResumeJudgment` (one a campaign a minute), oldest
            first.
        cache_dir: The cache folder its numbers' locks are kept in, across processes
            (None: ``$DIALKIT_CACHE_DIR``, else the user cache folder); the client's.
    """

    def __init__(self, transport: Transport, settings: GuardSettings,
                 judge: Judge | None = None, *, cache_dir: str | Path | None = None) -> None:
        self.settings = settings
        self.overrides: list[Override] = []
        self.resumes: list[ResumeJudgment] = []
        self.cache_dir = cache_dir
        self._folder: Path | None = None
        """The lock folder (:meth:`_lock_folder`), once made; None: set aside."""
        self._folder_asked = False
        self._folder_making = threading.Lock()
        """Held while the lock folder is made: the first contacts of several threads at
        once each saw it asked for and not yet made, and held their numbers in this
        process alone, so two processes sent past a cap together."""
        self._transport = transport
        self._judge = judge
        self._dnc = Dnc(transport)
        self._leads = Leads(transport)
        self._recent = RecentContacts(transport, self.now)
        self._numbers = transport.shared(NumberLocks, NumberLocks)
        self._seen: dict[int, str] = {}
        """The token of each lock this guard last saw (:mod:`._number_locks`)."""
        self._lock = threading.Lock()
        self._listed: dict[str, tuple[LiveDnc, float]] = {}
        self._verdicts: dict[tuple[object, ...], Verdict | None] = {}
        self._callback_leads: dict[str, str] = {}
        self._judged_resumes: dict[tuple[str, datetime], ResumeJudgment] = {}
        self._warned = False
        transport.on_write(self._written)
        if settings.enforce != "off" and settings.frames_given():
            self._loaded_judge().read(settings)  # a frame the audit would refuse: named now

    # the operations' questions ------------------------------------------------------------

    def contact(self, operation: str, phone: str, *, at: datetime | str | None = None,
                state: str | None = None, campaign_id: str | None = None,
                override: str | None = None, turn: ExitStack | None = None) -> None:
        """Refuse ``operation``'s contact to ``phone`` at ``at`` (default the service's
        now) where the enforced rules forbid it; with ``override``, record it instead.

        With ``turn``, the contact is let go to be sent inside it: the number stays held
        until ``turn`` closes, after the send, and what was sent is counted before it is
        let go. Without, it is judged alone (a question, nothing sent). The wait for the
        number, the reads and the send are one call, within the client's ``deadline``.

        Raises:
            ApiTimeoutError: The number's turn did not come within the deadline (another
                thread or process holds its lock); nothing was sent.
        """
        reason = _reason(override)
        if self._off():
            return
        with ExitStack() as alone:
            holds = alone if turn is None else turn
            holds.enter_context(self._transport.one_call())
            held = self._turn(holds, operation, phone)
            if self._seen.get(held.stripe) != held.token:  # another sent under this lock
                self._recent.placed()  # kept until a read succeeds
                self._seen[held.stripe] = held.token
            dnc = self._dnc_answer(phone)
            moment = self.now() if at is None else _utc(at)
            since = min(moment, self.now()) - self._loaded_judge().lookback
            calls, texts = self._recent.since(since)
            verdict = self._verdict(phone, moment, state, campaign_id, calls, texts, dnc)
            self._settle(operation, phone, moment, verdict, reason)
            if turn is not None:  # after the send, before the number is let go
                turn.callback(self._sent, held, operation)

    def _turn(self, holds: ExitStack, operation: str, phone: str) -> Held:
        """``phone``'s lock, held in ``holds`` once had within the call's deadline; a lock
        folder that failed it is set aside (the numbers held in this process alone)."""
        folder = self._lock_folder()
        try:
            held = holds.enter_context(self._numbers.held(phone, folder, wait=seconds_left()))
        except TimeoutError as holder:
            raise ApiTimeoutError(
                f"{operation} to {phone} was not sent: its turn did not come within the "
                f"call's deadline of {self._transport.deadline:g} s. The guard holds a "
                f"number while a contact to it is judged and sent, and {holder} held it "
                "all that time. Try again once that send has ended, or pass a larger "
                "deadline= to dialkit.Client.") from None
        if held.folder != folder:
            self._set_aside()
        return held

    def _sent(self, held: Held, operation: str) -> None:
        """A contact went under ``held``: a new token, seen by this guard (which counted
        its own contact already) and by no other, and a call placed read back at the next
        contact."""
        self._seen[held.stripe] = held.sent()
        if held.folder is None:
            self._set_aside()
        if operation in PLACES_CALLS:
            self._recent.placed()

    def _lead_contact(self, operation: str, lead_id: str, *, at: datetime | str | None,
                      override: str | None, phone: str | None = None,
                      turn: ExitStack | None = None) -> None:
        """:meth:`contact` for a lead, its address state and campaign read: to its number,
        or to ``phone`` (a click-to-call names the number it dials)."""
        if turn is not None:  # the lead's read is part of the call too
            turn.enter_context(self._transport.one_call())
        lead = self._leads.get(lead_id)
        self.contact(operation, phone or lead.phone, at=at, state=address_state(lead.custom_fields),
                     campaign_id=lead.campaign_id, override=override, turn=turn)

    def _callback_contact(self, operation: str, callback_id: str, lead_id: str | None, *,
                          at: datetime | str | None, override: str | None,
                          turn: ExitStack | None = None) -> None:
        """:meth:`_lead_contact` for a callback moved to ``at``: its lead given, or found
        among the pending callbacks of the account's campaigns (the contract has no read
        of one callback), and kept."""
        if turn is not None:  # the callbacks' reads are part of the call too
            turn.enter_context(self._transport.one_call())
        lead_id = lead_id or self._callback_lead(callback_id)
        if lead_id is None:  # no pending callback: the service refuses it, nobody is called
            return
        self._lead_contact(operation, lead_id, at=at, override=override, turn=turn)

    def _resume(self, operation: str, campaign_id: str, *, override: str | None) -> None:
        """Judge a campaign's diallable leads at the service's now; refuse the resume
        where most are forbidden, unless overridden."""
        judged = self._resume_judgment(operation, campaign_id)
        moment = judged.at
        refusal = None
        if judged.diallable and judged.forbidden > MOST * judged.diallable:
            assert judged.first is not None
            refusal = Verdict(
                judged.first.rule, judged.first.basis, judged.first.jurisdiction,
                f"{judged.forbidden} of {judged.diallable} diallable leads may not be "
                f"called now ({_counts(judged.by_rule)}); the first: {judged.first.evidence}",
                judged.opens_at)
        self._settle(operation, None, moment, refusal, _reason(override))

    def _resume_judgment(self, operation: str, campaign_id: str) -> ResumeJudgment:
        """The law's judgment of a campaign's diallable leads now, made once a minute: a
        resume asked through ``mcp serve`` is judged before the user's question, on the
        retry and at the send, one request that :attr:`resumes` records once."""
        # The first page's Date is the service's now, and no other read can answer in its
        # place: a campaign's own read would refuse an unknown campaign before the service
        # says what it says of the resume.
        listed = iter(self._leads.list(campaign_id=campaign_id))
        first = next(listed, None)
        now = self.now()
        key = (campaign_id, now.replace(second=0, microsecond=0))
        with self._lock:
            known = self._judged_resumes.get(key)
        if known is not None:
            return known
        leads = [lead for lead in itertools.chain(() if first is None else (first,), listed)
                 if lead.status in DIALLABLE]
        judged = self._loaded_judge().campaign(campaign_id, leads, now, self.settings)
        with self._lock:
            self._judged_resumes = {k: v for k, v in self._judged_resumes.items()
                                    if k[1] == key[1]} | {key: judged}
            self.resumes.append(judged)
        logger.info("%s %s: %d of %d diallable leads may not be called now%s",
                    operation, campaign_id, judged.forbidden, judged.diallable,
                    "" if judged.opens_at is None else
                    f"; the first opens at {judged.opens_at:%Y-%m-%d %H:%M} UTC")
        return judged

    def tool(self, operation: str, path: Mapping[str, str], body: object, *,
             override: str | None = None, turn: ExitStack | None = None,
             callback_lead: str | None = None) -> bool:
        """Judge a request of an operation named as the contract names it, with its wire
        ``path`` and ``body``: the one entry of every path (the client's methods, a tool
        call of ``dialkit mcp serve``), which judges the operations the contract marks
        (:data:`~dialkit.contract.CONTACTS`) and lets every other pass. Refused, or with
        ``override`` (a reason the user gave) sent and recorded; with ``turn``, the number
        held until it closes, as :meth:`contact` holds it.

        Args:
            callback_lead: The lead of the callback a reschedule moves, where the caller
                knows it (the contract has no read of one callback).

        Returns:
            Whether it judged a contact: False for one that reaches nobody now, or whose
            body the service will refuse anyway (it passes), or with the guard off.
        """
        request = asked(operation, path, body)
        _reason(override)
        if request is None or self._off():
            return False
        if request.person == "campaign":
            self._resume(operation, request.named, override=override)
        elif request.person == "callback":
            self._callback_contact(operation, request.named, callback_lead, at=request.at,
                                   override=override, turn=turn)
        elif request.lead is not None:
            self._lead_contact(operation, request.lead, at=request.at, override=override,
                               phone=request.phone, turn=turn)
        else:
            self.contact(operation, request.named, at=request.at, state=request.state,
                         campaign_id=request.campaign_id, override=override, turn=turn)
        return True

    def checks(self) -> tuple[str, ...]:
        """The rules this guard judges a contact by, in words (none with the guard off):
        what an assistant's confirmation question says was checked."""
        if self.settings.enforce == "off":
            return ()
        accepted = self.settings.accept_unjudged
        checked = ["the calling hours and days of the place called (and of the lead's "
                   "address state)", "the Do-Not-Call lists (a live check)",
                   "the frequency caps (the number's recent calls and texts)",
                   "that the law of the country called is held (a contact to a country "
                   "whose law is not held is refused, not judged" + (
                       f"; {', '.join(accepted)} accepted unjudged)" if accepted else ")")]
        if self.settings.enforce == "law_and_policy":
            if self.settings.blocked_countries:
                checked.append("the account's blocked countries")
            if self.settings.policy is not None:
                checked.append("the account's policy")
        return tuple(checked)

    def _lock_folder(self) -> Path | None:
        """Where the numbers' locks are held across processes: the key's folder under
        ``guard/`` of the cache folder, named by a digest of the service and the key's
        credential id, made owner-only on first use; None where it cannot be made or may
        not be trusted (said once, at WARNING): the numbers are then held in this process
        alone."""
        with self._folder_making:
            if not self._folder_asked:
                name = hashlib.sha256(f"{self._transport.base_url}\0"
                                      f"{self._transport.credential_id}".encode()
                                      ).hexdigest()[:16]
                try:
                    self._folder = trusted(private_dir(cache_root(self.cache_dir) / "guard"
                                                        / name))
                except (OSError, InputError) as cannot:
                    logger.warning("the guard cannot keep its locks in the cache folder "
                                   "(%s): a contact is held against this process's others "
                                   "only, not against other processes' contacts in flight",
                                   cannot)
                self._folder_asked = True
            return self._folder

    def _set_aside(self) -> None:
        """Hold the numbers in this process alone from now on: the lock folder failed (a
        read-only folder, a full disk), said as it failed (:mod:`._number_locks`)."""
        self._folder = None

    def now(self) -> datetime:
        """The service's now: its latest ``Date`` plus the time passed since (a DNC
        check or a list call is made first, so one is known); this machine's otherwise."""
        said = self._transport.service_now()
        return datetime.fromtimestamp(time.time() if said is None else said, UTC)

    # the evidence ---------------------------------------------------------------------------

    def _dnc_answer(self, phone: str) -> LiveDnc:
        """The number's live DNC answer and when it was obtained (the service's now),
        reused for :data:`DNC_CACHE_SECONDS`."""
        with self._lock:
            known = self._listed.get(phone)
        if known is not None and time.monotonic() - known[1] < DNC_CACHE_SECONDS:
            return known[0]
        answer = LiveDnc(self._dnc.check([phone])[0], self.now())
        with self._lock:
            self._listed[phone] = (answer, time.monotonic())
        return answer

    def _written(self, call: SentCall, answer: Answer | None) -> None:
        """Keep what the client's own write changed: a text it sent counts toward the caps
        (:meth:`RecentContacts.sent`: a key without ``sms:read`` cannot read it back; one
        whose answer was lost is looked for at the next contact); the DNC answer of a
        number it put on the list (``dnc.add``), or whose consent it recorded
        (``consents.create``: a revocation lists the number on the account's own list), is
        forgotten; a write that names no number there forgets every answer."""
        if call.operation == "sms.send":
            self._recent.sent(None if answer is None
                              else SmsMessage.model_validate_json(answer.content))
        if call.operation not in _LISTING_WRITES:
            return
        phone = call.body.get("phone") if isinstance(call.body, Mapping) else None
        with self._lock:
            if isinstance(phone, str):
                self._listed.pop(phone, None)
            else:
                self._listed.clear()

    def _verdict(self, phone: str, moment: datetime, state: str | None,
                 campaign_id: str | None, calls: list[Call], texts: list[SmsMessage],
                 dnc: LiveDnc) -> Verdict | None:
        """The judge's verdict, kept per minute: every window of the law opens and closes
        on a whole minute (tests/client/test_guard.py holds the table to it), so a verdict
        holds for the minute, given the same calls and texts to the number and the same
        DNC answer; but for its first moment, which a window that ends "after 8 p.m."
        (Fla. Stat. 501.616(6)(a)) still holds, and the rest of its minute does not."""
        mine = [call for call in calls if call.to_number == phone]
        sent = [text for text in texts if text.to == phone]
        if not self._loaded_judge().capped(phone, state, len(mine) + len(sent), self.settings):
            mine, sent = [], []
        minute = moment.replace(second=0, microsecond=0)
        key = (phone, state, campaign_id, minute, moment == minute,
               frozenset(call.id for call in mine), frozenset(text.id for text in sent),
               dnc.answer.listed, str((dnc.answer.model_extra or {}).get("listed_at")),
               dnc.checked_at)
        with self._lock:
            if key in self._verdicts:
                return self._verdicts[key]
        verdict = self._loaded_judge().contact(phone, moment, state=state, campaign_id=campaign_id,
                                         calls=mine, texts=sent, dnc=dnc,
                                         settings=self.settings)
        with self._lock:
            if len(self._verdicts) >= _VERDICTS_KEPT:
                self._verdicts.clear()
            self._verdicts[key] = verdict
        return verdict

    def _callback_lead(self, callback_id: str) -> str | None:
        """The lead of a pending callback, from the pending callbacks of each campaign."""
        with self._lock:
            known = self._callback_leads.get(callback_id)
        if known is not None:
            return known
        callbacks = Callbacks(self._transport)
        for campaign in Campaigns(self._transport).list():
            for callback in callbacks.list(campaign.id, status="pending"):
                if callback.lead_id is not None:
                    with self._lock:
                        self._callback_leads[callback.id] = callback.lead_id
        with self._lock:
            return self._callback_leads.get(callback_id)

    # the answer --------------------------------------------------------------------------

    def _settle(self, operation: str, phone: str | None, moment: datetime,
                verdict: Verdict | None, reason: str | None) -> None:
        """Refuse the contact, or record its override, or let it go (a risk, where the
        law alone is enforced: logged as a warning)."""
        if reason is not None:
            self.overrides.append(Override(operation, phone, moment, reason, verdict))
            logger.warning("%s%s sent with override %r%s", operation,
                           f" to {phone}" if phone else "", reason,
                           "" if verdict is None else f" over {verdict.rule}: "
                           f"{verdict.evidence}")
            return
        if verdict is not None and verdict.risk and self.settings.enforce == "law":
            logger.warning("%s%s sent with a risk the policy would refuse: %s", operation,
                           f" to {phone}" if phone else "", verdict.evidence)
            return
        if verdict is not None:
            raise verdict.error(operation, phone, moment)

    def _off(self) -> bool:
        """Whether nothing is enforced; the first time, say what is no longer checked."""
        if self.settings.enforce != "off":
            return False
        if not self._warned:
            self._warned = True
            logger.warning("the guard is off for this client: %s are sent without checking "
                           "calling hours, the Do-Not-Call list, frequency caps or blocked "
                           "countries", ", ".join(
                               name if contact.when is None else f"{name}({contact.when}=True)"
                               for name, contact in CONTACTS.items()))
        return True

    def _loaded_judge(self) -> Judge:
        """The law's judge, made on first use as the ``dialkit`` package wired it."""
        if self._judge is None:
            self._judge = law_judge()
        return self._judge


def _reason(override: str | None) -> str | None:
    """``override``, checked: a reason of some words, not an empty string."""
    if override is not None and (not isinstance(override, str) or not override.strip()):
        raise InputError("override is the reason the contact is sent anyway, as text "
                         "(override=\"customer asked to be called now\"), not "
                         f"{override!r}")
    return None if override is None else override.strip()


def _utc(at: datetime | str) -> datetime:
    """``at`` as an aware UTC datetime (text in ISO 8601 with its zone)."""
    moment = iso_datetime(at) if isinstance(at, str) else at
    if moment.tzinfo is None:
        raise InputError(f"scheduled_at {at!r} has no time zone: pass it with its offset "
                         "or Z")
    return held(moment, "scheduled_at", at).astimezone(UTC)


def _counts(by_rule: dict[str, int]) -> str:
    return ", ".join(f"{rule}: {count}" for rule, count in by_rule.items())
