"""The closed sets of values options take, kept apart from the heavy code that acts on them.

Shell completion offers these values after ``--preset``, ``--policy`` and ``--fail-on``
from this module alone, without importing the audit, pandas or ``phonenumbers`` (a TAB
took 1-3 s when it imported them); the code that acts on a value builds its
table from the same names, so a value is added in one place. So are the audit's inputs
(:data:`AUDIT_INPUTS`): the command makes its options from them, and the library's notes
and the command's name them from them too.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._base_error import InputError

VIOLATIONS = ("law", "policy")
"""The bases (:data:`dialkit.compliance.BASES`) of a violation, a call that broke a rule,
that ``--fail-on any`` stops on. A ``risk`` is not one."""

PRESET_NAMES = ("us", "uk", "ca", "us-federal")
"""The law presets' names (:data:`dialkit.compliance.PRESETS`), as ``--preset`` takes them."""

POLICY_NAMES = ("house-rules",)
"""The named policies' names (:data:`dialkit.compliance.POLICIES`), as ``--policy`` takes
them."""

FAIL_ON = {"law": ("law",), "any": VIOLATIONS, "risk": ("risk",)}
"""The bases each ``fail_on`` name (``--fail-on``) stops on: a risk is no violation, so
only ``risk`` stops on one."""


FRAME, RECORDS, IDS, SWITCH, CHOICE, PROGRAM = (
    "frame", "records", "ids", "switch", "choice", "program")
"""The kinds of input of the audit (:class:`AuditInput`): one of the account's frames
(``client.frames``: the command reads an export of it, with ``--calls``, or on the account
the account's own, as ``load`` does); the account's own records, which no operation serves
(a frame, or a file on either path); values, one a line of a file on the command line; a
fact that holds or not; what the auditor chooses, read from its words by an option the
command writes itself (the law, a period, the campaigns); what only a program asks."""
FILES = (FRAME, RECORDS, IDS)
"""The kinds of input the command reads from a file."""
GIVEN = (*FILES, SWITCH)
"""The kinds whose option the command makes from the declaration alone: a file or a
switch, read the same way whatever the input."""
CALLS_ASKED = "client.frames.calls() or an export"
"""How the library's refusals ask for the calls audited, the one frame no keyword of
:data:`AUDIT_INPUTS` names (the command's words: ``--calls FILE``)."""


@dataclass(frozen=True)
class AuditInput:
    """One input of :func:`dialkit.compliance.audit`, declared once: its keyword
    ``name``; the ``flag`` of ``dialkit compliance audit`` that gives it (None: a
    program's alone); its ``kind``; the ``fact`` it tells the audit (the option's help
    and the docs' line); the ``hint`` a note or a refusal adds where it asks a program for
    it: the ``client.frames`` method that gives it, where the account has one, else what
    the records are (never a frame that does not exist); and the
    judges before a call that take it too (``ahead``: ``next_allowed``, ``upcoming``,
    ``guard``), by the same name, and ``ahead_note``: why a judge left out does not take
    it (a judge that judges a rule an input changes takes it), or how one reads
    it otherwise than the audit.

    The command makes its option from this line (a :data:`GIVEN` kind), the library's
    notes and the command's say how to pass it (:attr:`in_python`, :attr:`in_command`),
    and the docs list it, so an input added to the audit is added here, once."""

    name: str
    flag: str | None
    kind: str
    fact: str
    hint: str = ""
    ahead: tuple[str, ...] = ()
    ahead_note: str = ""

    @property
    def in_python(self) -> str:
        """How the library's words ask for it: ``texts= (client.frames.sms_reports())``,
        ``audit(nonprofit=True)``."""
        if self.kind == SWITCH:
            return f"audit({self.name}=True)"
        return f"{self.name}=" + (f" ({self.hint})" if self.hint else "")

    @property
    def in_command(self) -> str:
        """How the command's words ask for it: ``--texts FILE``, ``--nonprofit``, ``--since``
        (its value follows)."""
        return f"{self.flag} FILE" if self.kind in FILES else str(self.flag)

    def checked_switch(self, value: object, where: str) -> bool:
        """A :data:`SWITCH`'s value as given to ``where`` (``next_allowed``,
        ``GuardSettings``): ``True`` or ``False``. Anything else is refused naming it, never
        read as either: ``"no"`` is true to Python, and a fact read so would lift a list's
        rule from every call."""
        if value is True or value is False:
            return value
        raise InputError(f"{where}({self.name}={value!r}) is not True or False: pass "
                         f"{self.name}=True where it holds of the account's calls, else "
                         "leave it out")


_BEFORE_THE_CALL = ("next_allowed", "upcoming", "guard")
AUDIT_INPUTS = (
    AuditInput("leads", "--leads", FRAME, (
        "The account's leads (client.frames.leads()): each call's lead, its address state "
        "and person are found, and the lead rules run (dnc_lead, unscreened_lead, "
        "unknown_address_state)."), hint="client.frames.leads()", ahead=("upcoming", "guard"),
        ahead_note=(
        "next_allowed takes them as the numbers it is asked about (phones_or_leads), read "
        "as the audit reads them where they hold its columns (id, campaign_id, phone, "
        "status); dialkit compliance when --leads FILE asks about the file's leads of its "
        "numbers. The guard reads of them the Do-Not-Call lists' part alone (line: "
        "business; the lead ids contracts name); a lead's address state and campaign it "
        "reads from the lead's own record.")),
    AuditInput("dnc", "--dnc", FRAME, (
        "The DNC results of the numbers (client.frames.dnc): phone, listed, checked_at, "
        "optionally listed_at and list; dnc_call, dnc_lead and unscreened_lead run."),
        hint="client.frames.dnc of the numbers", ahead=_BEFORE_THE_CALL, ahead_note=(
        "The guard checks each number live (an answer that names no list, read as the "
        "national register) and judges the rows given beside it (a state's scrub: list "
        "US-TX).")),
    AuditInput("texts", "--texts", FRAME, (
        "The account's texts (client.frames.sms_reports(): message_id, to, created_at), "
        "audited as the calls they are in law (47 CFR 64.1200(e)) by the rules of a "
        "contact, and counted with the calls toward the caps."),
        hint="client.frames.sms_reports()", ahead=_BEFORE_THE_CALL, ahead_note=(
        "The guard reads the account's texts itself.")),
    AuditInput("verified_caller_ids", "--verified-caller-ids", IDS, (
        "The account's verified caller ids: unverified_caller_id runs (an emulator's "
        "account: its own by default)."), ahead_note=(
        "No judge before a call knows its caller id (a scheduled call's is the dialer's); "
        "the service checks a click-to-call's against the account's own before dialling.")),
    AuditInput("consents", "--consents", RECORDS, (
        "The account's consent records (phone or lead_id, kind written, ebr, oral or "
        "invitation (the person asked to be called), "
        "given_at, revoked_at, optionally relationship purchase or inquiry): they exempt "
        "calls to listed numbers as each list's law says, a revocation is an opt-out, and "
        "no_written_consent runs."), hint="the account's consent records",
        ahead=_BEFORE_THE_CALL, ahead_note=(
        "A consent also lifts the hours where a row's words say so (16 CFR 310.4(c)), "
        "which each judge before a call reads as it stands at the moment asked.")),
    AuditInput("reassigned", "--reassigned", RECORDS, (
        "The reassigned numbers database's answers (phone, asked_at, answer yes, no or "
        "no_data): a yes voids the number's consents given before it."),
        hint="the reassigned numbers database's answers", ahead=_BEFORE_THE_CALL, ahead_note=(
        "A yes voids a contract too (in upcoming, a consent too), which every judge before "
        "a call reads.")),
    AuditInput("emergencies", "--emergencies", RECORDS, (
        "The declared states of emergency (area: a state; starts_at; ends_at, empty while "
        "in force; optionally declaration): a call to a state whose law forbids "
        "solicitation during one (Louisiana, New York) is a calling_hours finding citing "
        "it."), hint="the declared states of emergency", ahead=_BEFORE_THE_CALL),
    AuditInput("nonprofit", "--nonprofit", SWITCH, (
        "The account is a tax-exempt nonprofit calling for itself: its calls are no "
        "telephone solicitations (47 U.S.C. 227(a)(4)(C)), and the National Do Not Call "
        "Registry's rule does not judge them."), ahead=_BEFORE_THE_CALL),
    AuditInput("charity", "--charity", SWITCH, (
        "The calls are made by or for a registered charity (Income Tax Act 248(1), "
        "narrower than a nonprofit) to solicit a donation: Canada's National DNCL does not "
        "bind them (Telecommunications Act 41.7(1)(a))."), ahead=_BEFORE_THE_CALL),
    AuditInput("newspaper", "--newspaper", SWITCH, (
        "The calls are made by or for a newspaper of general circulation to solicit "
        "subscriptions (41.7(1)(g); some states' lists too)."), ahead=_BEFORE_THE_CALL),
    AuditInput("contracts", "--contracts", RECORDS, (
        "The written contracts with the persons called (phone or lead_id, signed_at, "
        "ends_at: empty while in force): a contract lifts the lists whose law names it "
        "(Canada's DNCL, 41.7(2)) while in force, and as long after as that law counts "
        "it."), hint="the account's written contracts", ahead=_BEFORE_THE_CALL),
    AuditInput("blocked_countries", "--blocked-countries", CHOICE, (
        "Countries calls must not reach, ISO codes or names (KP,IR): blocked_country runs "
        "(a policy's finding)."), ahead=("upcoming", "guard"), ahead_note=(
        "Not next_allowed: it answers when the law and the policy's window and cap let a "
        "number be called, and a blocked country has no such moment.")),
    AuditInput("rules", "--preset", CHOICE, (
        "The law: US (the federal rule and each state's), UK, CA or US_FEDERAL (the "
        "federal rule alone); by name on the command line."), ahead=_BEFORE_THE_CALL),
    AuditInput("policy", "--policy", CHOICE, (
        "The account's own stricter rule, reported as policy (HOUSE_RULES, a POLICY(...); "
        "on the command line house-rules, or a window and a cap of its own)."),
        ahead=_BEFORE_THE_CALL),
    AuditInput("campaign_id", "--campaign", CHOICE,
               "Audit this campaign only, or these.", ahead=_BEFORE_THE_CALL),
    AuditInput("since", "--since", CHOICE, (
        "Report the calls placed from then on, each judged against every call before it."),
        ahead_note="A period of the calls reported: a judge before a call reports the one to "
                  "come."),
    AuditInput("until", "--until", CHOICE, (
        "Report the calls placed before then (those after it still count toward an "
        "abandonment period it falls in)."),
        ahead_note="A period of the calls reported, as since."),
    AuditInput("as_of", "--as-of", CHOICE, (
        "When the audit looks from (default now): the DNC checks' scrub age, and evidence "
        "dated after it read the stricter way."), ahead=("upcoming",), ahead_note=(
        "next_allowed looks from the moment it is asked about (at=), the guard from the "
        "service's now.")),
    AuditInput("values", "--value", CHOICE, (
        "What another tool's words mean, per named column (direction, status, disposition, "
        "hangup_cause; line, kind, relationship, answer, list): {'disposition': {'Sale "
        "Made': 'sale'}}, on the command line --value disposition:'Sale Made'=sale "
        "(repeat it). The contract's words are read in any case, with spaces, underscores "
        "and hyphens alike; a call's word understood neither way is named in the notes "
        "and held out of the rules it decides, a record's refused."),
        ahead=("next_allowed", "upcoming"), ahead_note=(
        "Not the guard: it reads the account's own records, which the service writes in "
        "the contract's words.")),
    AuditInput("mapping", "--map", CHOICE, (
        "Which column of another tool's export holds a column the audit reads: "
        "{'to_number': 'Dialed', 'dnc.checked_at': 'Scrub Date'}, on the command line --map "
        "to_number=Dialed (repeat it). Without it, a column named as the audit names it is "
        "read in any case, else one named as dialers, CRMs and DNC vendors name it (Phone "
        "Number, Call Start, Line Type) where exactly one is; the notes say what was read "
        "as what."), ahead=("next_allowed", "upcoming"), ahead_note=(
        "Not the guard: it reads the account's own records, in dialkit's columns.")),
    AuditInput("compute", None, PROGRAM, (
        "Of Dask's input: False answers the report delayed (dask.delayed); a command "
        "prints the report, so it computes it."),
        ahead_note="Dask's alone: the judges before a call answer at once."),
    AuditInput("campaigns", None, PROGRAM,
               "The old name of campaign_id, for one release: it warns.",
               ahead_note="campaign_id is their name for it."),
)
"""Every keyword input of :func:`dialkit.compliance.audit` and the option that gives it
(``tests/compliance/test_audit_inputs.py`` holds the two to each other)."""
