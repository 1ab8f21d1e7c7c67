"""The closed sets of values options take, kept apart from the heavy code that acts on them.

Shell completion offers these values after ``--preset``, ``--policy`` and ``--fail-on``
from this module alone, without importing the audit, pandas or ``phonenumbers`` (a TAB
took 1-3 s when it imported them); the code that acts on a value builds its
table from the same names, so a value is added in one place. So are the audit's inputs
(:data:`AUDIT_INPUTS`): the command makes its options from them, and the library's notes
and the command's name them from them too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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
NOT_JUDGED_EXIT = 3
"""The exit status of a compliance command whose ``--fail-on`` stops on a rule not judged
for some calls (``law``, ``any``) and on nothing else: not 1, which says a rule was broken,
nor 0, which says every call was judged (docs/cli.md, "Exit status")."""


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
JUDGES = ("audit", "next_allowed", "upcoming", "repair", "guard", "Monitor")
"""The judges of the law that take the audit's inputs: the audit of calls made, the
judges before a call (the guard: ``GuardSettings`` and its judge's evidence), and the
audit kept as the calls happen (``Monitor``). Each input's declaration says, for each of
them that does not read it, why."""
REPORT = "the report"
"""The reader of a column only the report lists (an abandoned call's row whole)."""
CALLS_ASKED = "client.frames.calls() or an export"
"""How the library's refusals ask for the calls audited, the one frame no keyword of
:data:`AUDIT_INPUTS` names (the command's words: ``--calls FILE``)."""


@dataclass(frozen=True)
class Column:
    """One column of an input frame: its ``name``, ``kind`` (``text``: checked as text, an
    id or a label held as numbers refused; ``phone``: text, and E.164; ``time``: read as
    UTC; ``number``; ``boolean``, as a CSV writes it; ``value``, read as given: JSON text, a
    list), whether the frame must have it, and what reads it (the rules, or
    :data:`REPORT`). Plain names, so that this module stays free of pandas."""

    name: str
    kind: str
    required: bool = False
    read_by: tuple[str, ...] = ()


def _c(name: str, kind: str, *read_by: str, required: bool = False) -> Column:
    """A :class:`Column` written as a line of the tables below."""
    return Column(name, kind, required, read_by)


_CALLED = ("calling_hours", "call_frequency", "dnc_call", "blocked_country", "caller_id")
CALLS_COLUMNS = (
    _c("id", "text", "every finding", required=True),
    _c("direction", "text", "every rule (outbound calls only)", required=True),
    _c("from_number", "phone", "caller_id", "unverified_caller_id", required=True),
    _c("to_number", "phone", *_CALLED, required=True),
    _c("created_at", "time", *_CALLED, "abandonment", required=True),
    _c("answered_at", "time", "abandonment", "short_ring", required=True),
    _c("ended_at", "time", "abandonment", "short_ring", required=True),
    _c("campaign_id", "text", "call_frequency", "abandonment", required=True),
    _c("disposition", "text", "abandonment", "dnc_call", required=True),
    _c("agent_joined_at", "time", "abandonment"),
    _c("status", "value", "abandonment", "short_ring"),
    _c("hangup_cause", "value", "short_ring"),
    _c("subject", "value", "call_frequency"),
    _c("prerecorded", "boolean", "no_written_consent"),
    _c("duration_seconds", "number", REPORT))
"""The columns of the calls audited, the one frame every judge takes by a name of its own
(``audit``'s first argument, ``next_allowed(calls=)``, the frames of ``upcoming`` and
``repair``, the guard's evidence), so not a keyword input below."""


@dataclass(frozen=True)
class AuditInput:
    """One input of the judges of the law, declared once: its keyword ``name``; the
    ``flag`` of ``dialkit compliance audit`` that gives it (None: a program's alone); its
    ``kind``; the ``fact`` it tells the audit (the option's help and the docs' line); the
    ``hint`` a note or a refusal adds where it asks a program for it: the ``client.frames``
    method that gives it, where the account has one, else what the records are (never a
    frame that does not exist); a frame's ``columns``; ``not_read``: each of the
    :data:`JUDGES` that does not read it, and why (a judge that judges a rule the input
    changes reads it, so a judge left out reads it, and a test holds each judge's
    signature to this); and ``how``: how a judge that reads it reads it otherwise than
    the audit.

    The command makes its option from this line (a :data:`GIVEN` kind), the library's
    notes and the command's say how to pass it (:attr:`in_python`, :attr:`in_command`),
    the audit checks a frame by its columns, and the docs list it, so an input added to
    the judges is added here, once."""

    name: str
    flag: str | None
    kind: str
    fact: str
    hint: str = ""
    columns: tuple[Column, ...] = ()
    not_read: dict[str, str] = field(default_factory=dict, hash=False)
    how: str = ""

    @property
    def readers(self) -> tuple[str, ...]:
        """The :data:`JUDGES` that read this input, by its name."""
        return tuple(judge for judge in JUDGES if judge not in self.not_read)

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


_REPAIR_FRAMES = ("it reads the account's frames as upcoming loaded them (frames=, or the "
                  "client's), since it plans the calls upcoming found.")
_REPAIR_FOUND = "it acts on upcoming's answer, which was judged with it."
_READ_AS_WRITTEN = ("it reads the account's own records and frames, which the service writes "
                    "in the contract's words and dialkit's columns.")
_AUDIT_ALONE = "a period of the calls reported: a judge before a call judges the one to come."
_WHEN_MOMENT = "it looks from the moment it is asked about (at=)."
_GUARD_NOW = "it looks from the service's now."
_MONITOR_CLOCK = "it looks from the latest event it has read, as the audit it equals does."
AUDIT_INPUTS = (
    AuditInput("leads", "--leads", FRAME, (
        "The account's leads (client.frames.leads()): each call's lead, its address state "
        "and person are found, and the lead rules run (dnc_lead, unscreened_lead, "
        "unknown_address_state)."), hint="client.frames.leads()", columns=(
        _c("id", "text", "dnc_lead", "unscreened_lead", required=True),
        _c("campaign_id", "text", "every lead rule", required=True),
        _c("phone", "phone", "every lead rule", required=True),
        _c("status", "text", "dnc_lead", "unscreened_lead", required=True),
        _c("state", "text", "calling_hours", "call_frequency", "unknown_address_state"),
        _c("custom_fields", "text", "calling_hours", "call_frequency"),
        _c("line", "text", "dnc_call"),
        _c("other_phones", "value", "call_frequency", "calling_hours"),
        _c("subject", "value", "call_frequency"),
        _c("created_at", "time", REPORT)), not_read={
        "next_allowed": (
            "it takes them as the numbers it is asked about (phones_or_leads), read as the "
            "audit reads them where they hold its columns (id, campaign_id, phone, status); "
            "dialkit compliance when --leads FILE asks about the file's leads of its "
            "numbers."),
        "repair": _REPAIR_FRAMES}, how=(
        "The guard reads of them the Do-Not-Call lists' part alone (line: business; the "
        "lead ids contracts name); a lead's address state and campaign it reads from the "
        "lead's own record.")),
    AuditInput("dnc", "--dnc", FRAME, (
        "The DNC results of the numbers (client.frames.dnc): phone, listed, checked_at, "
        "optionally listed_at and list; dnc_call, dnc_lead and unscreened_lead run."),
        hint="client.frames.dnc of the numbers", columns=(
        _c("phone", "phone", "dnc_call", "dnc_lead", "unscreened_lead", required=True),
        _c("listed", "boolean", "dnc_call", "dnc_lead", required=True),
        _c("checked_at", "time", "dnc_call", "unscreened_lead", required=True),
        _c("listed_at", "time", "dnc_call"),
        _c("list", "text", "dnc_call", "dnc_lead")), not_read={
        "repair": ("it checks the DNC list now for the callbacks it moves (frames=, or the "
                   "client's).")}, how=(
        "The guard checks each number live (an answer that names no list, read as the "
        "national register) and judges the rows given beside it (a state's scrub: list "
        "US-TX).")),
    AuditInput("texts", "--texts", FRAME, (
        "The account's texts (client.frames.sms_reports(): message_id, to, created_at), "
        "audited as the calls they are in law (47 CFR 64.1200(e)) by the rules of a "
        "contact, and counted with the calls toward the caps."),
        hint="client.frames.sms_reports()", columns=(
        _c("message_id", "text", "every finding", required=True),
        _c("to", "phone", *_CALLED, required=True),
        _c("created_at", "time", *_CALLED, required=True),
        _c("status", "text", "the evidence of a text's findings"),
        _c("error_code", "text", "the evidence of a text's findings")),
        not_read={"repair": _REPAIR_FRAMES, "guard": (
            "it reads the account's texts itself, as the service sent them.")}),
    AuditInput("verified_caller_ids", "--verified-caller-ids", IDS, (
        "The account's verified caller ids: unverified_caller_id runs (an emulator's "
        "account: its own by default)."), not_read=dict.fromkeys(
        ("next_allowed", "upcoming", "repair", "guard"),
        "no judge before a call knows its caller id (a scheduled call's is the dialer's); "
        "the service checks a click-to-call's against the account's own before dialling.")),
    AuditInput("consents", "--consents", RECORDS, (
        "The account's consent records (phone or lead_id, kind written, ebr, oral or "
        "invitation (the person asked to be called), "
        "given_at, revoked_at, optionally relationship purchase or inquiry): they exempt "
        "calls to listed numbers as each list's law says, a revocation is an opt-out, and "
        "no_written_consent runs."), hint="the account's consent records", columns=(
        _c("phone", "phone", "dnc_call", "no_written_consent"),
        _c("lead_id", "text", "dnc_call", "no_written_consent"),
        _c("kind", "text", "dnc_call", "no_written_consent", required=True),
        _c("given_at", "time", "dnc_call", "no_written_consent", required=True),
        _c("revoked_at", "time", "dnc_call", "no_written_consent"),
        _c("relationship", "text", "dnc_call")), how=(
        "A consent also lifts the hours where a row's words say so (16 CFR 310.4(c)), "
        "which each judge before a call reads as it stands at the moment asked.")),
    AuditInput("reassigned", "--reassigned", RECORDS, (
        "The reassigned numbers database's answers (phone, asked_at, answer yes, no or "
        "no_data): a yes voids the number's consents given before it."),
        hint="the reassigned numbers database's answers", columns=(
        _c("phone", "phone", "dnc_call", "no_written_consent", required=True),
        _c("asked_at", "time", "dnc_call", "no_written_consent", required=True),
        _c("answer", "text", "dnc_call", "no_written_consent", required=True)), how=(
        "A yes voids a contract too (in upcoming, a consent too), which every judge before "
        "a call reads.")),
    AuditInput("emergencies", "--emergencies", RECORDS, (
        "The declared states of emergency (area: a state; starts_at; ends_at, empty while "
        "in force; optionally declaration): a call to a state whose law forbids "
        "solicitation during one (Louisiana, New York) is a calling_hours finding citing "
        "it."), hint="the declared states of emergency", columns=(
        _c("area", "text", "calling_hours", "unknown_jurisdiction", required=True),
        _c("starts_at", "time", "calling_hours", "unknown_jurisdiction", required=True),
        _c("ends_at", "time", "calling_hours", "unknown_jurisdiction"),
        _c("declaration", "text", "the evidence of an emergency's findings"))),
    AuditInput("nonprofit", "--nonprofit", SWITCH, (
        "The account is a tax-exempt nonprofit calling for itself: its calls are no "
        "telephone solicitations (47 U.S.C. 227(a)(4)(C)), and the National Do Not Call "
        "Registry's rule does not judge them.")),
    AuditInput("charity", "--charity", SWITCH, (
        "The calls are made by or for a registered charity (Income Tax Act 248(1), "
        "narrower than a nonprofit) to solicit a donation: Canada's National DNCL does not "
        "bind them (Telecommunications Act 41.7(1)(a)).")),
    AuditInput("newspaper", "--newspaper", SWITCH, (
        "The calls are made by or for a newspaper of general circulation to solicit "
        "subscriptions (41.7(1)(g); some states' lists too).")),
    AuditInput("contracts", "--contracts", RECORDS, (
        "The written contracts with the persons called (phone or lead_id, signed_at, "
        "ends_at: empty while in force): a contract lifts the lists whose law names it "
        "(Canada's DNCL, 41.7(2)) while in force, and as long after as that law counts "
        "it."), hint="the account's written contracts", columns=(
        _c("phone", "phone", "dnc_call"),
        _c("lead_id", "text", "dnc_call"),
        _c("signed_at", "time", "dnc_call", required=True),
        _c("ends_at", "time", "dnc_call"))),
    AuditInput("blocked_countries", "--blocked-countries", CHOICE, (
        "Countries calls must not reach, ISO codes or names (KP,IR): blocked_country runs "
        "(a policy's finding)."), not_read={
        "next_allowed": ("it answers when the law and the policy's window and cap let a "
                         "number be called, and a blocked country has no such moment."),
        "repair": ("it leaves a callback upcoming found to a blocked country as it is: no "
                   "moment would allow it.")}),
    AuditInput("rules", "--preset", CHOICE, (
        "The law: US (the federal rule and each state's), UK, CA or US_FEDERAL (the "
        "federal rule alone); by name on the command line.")),
    AuditInput("policy", "--policy", CHOICE, (
        "The account's own stricter rule, reported as policy (HOUSE_RULES, a POLICY(...); "
        "on the command line house-rules, or a window and a cap of its own).")),
    AuditInput("campaign_id", "--campaign", CHOICE,
               "Audit this campaign only, or these.", not_read={
                   "repair": _REPAIR_FOUND,
                   "guard": "it judges each contact by its lead's campaign, as the service "
                            "records it."}),
    AuditInput("since", "--since", CHOICE, (
        "Report the calls placed from then on, each judged against every call before it."),
        not_read=dict.fromkeys(("next_allowed", "upcoming", "repair", "guard"),
                               _AUDIT_ALONE)),
    AuditInput("until", "--until", CHOICE, (
        "Report the calls placed before then (those after it still count toward an "
        "abandonment period it falls in)."),
        not_read=dict.fromkeys(("next_allowed", "upcoming", "repair", "guard"),
                               _AUDIT_ALONE)),
    AuditInput("as_of", "--as-of", CHOICE, (
        "When the audit looks from (default now): the DNC checks' scrub age, and evidence "
        "dated after it read the stricter way."), not_read={
        "next_allowed": _WHEN_MOMENT, "repair": "it looks from each callback's due time.",
        "guard": _GUARD_NOW, "Monitor": _MONITOR_CLOCK}),
    AuditInput("values", "--value", CHOICE, (
        "What another tool's words mean, per named column (direction, status, disposition, "
        "hangup_cause; line, kind, relationship, answer, list): {'disposition': {'Sale "
        "Made': 'sale'}}, on the command line --value disposition:'Sale Made'=sale "
        "(repeat it). The contract's words are read in any case, with spaces, underscores "
        "and hyphens alike; a call's word understood neither way is named in the notes "
        "and held out of the rules it decides, a record's refused."),
        not_read=dict.fromkeys(("repair", "guard"), _READ_AS_WRITTEN)),
    AuditInput("mapping", "--map", CHOICE, (
        "Which column of another tool's export holds a column the audit reads: "
        "{'to_number': 'Dialed', 'dnc.checked_at': 'Scrub Date'}, on the command line --map "
        "to_number=Dialed (repeat it). Without it, a column named as the audit names it is "
        "read in any case, else one named as dialers, CRMs and DNC vendors name it (Phone "
        "Number, Call Start, Line Type) where exactly one is; the notes say what was read "
        "as what."), not_read=dict.fromkeys(("repair", "guard"), _READ_AS_WRITTEN)),
    AuditInput("campaigns", None, PROGRAM,
               "The old name of campaign_id, for one release: it warns.",
               not_read=dict.fromkeys(("next_allowed", "upcoming", "repair", "guard"),
                                      "campaign_id is their name for it.")),
)
"""Every keyword input of the judges of the law (:data:`JUDGES`), each with the option
that gives it to the audit's command, its columns and which judges read it
(``tests/compliance/test_audit_inputs.py`` holds the judges' signatures to it)."""
