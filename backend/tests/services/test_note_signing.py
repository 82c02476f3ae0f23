"""carevault.notes.service: a note's author, signing (attestation, content hash sealed in the
audit trail, late entries), co-signature of trainees' notes, and amendments with a reason
shown as addenda."""

from __future__ import annotations

import hashlib
import json
from datetime import timedelta
from typing import Any

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.appointments.models import Appointment
from carevault.auth.models import Role, User
from carevault.auth.principal import Account, Principal
from carevault.core.clock import utc_now
from carevault.core.paging import Pagination
from carevault.notes import service as notes
from carevault.notes.models import NoteStatus, SessionNote
from carevault.notes.schemas import SessionNoteCreate, SessionNoteUpdate
from carevault.workspaces.models import Workspace
from carevault.workspaces.time import today_in
from tests.support import factories
from tests.support.services import Clinic, audit_events, field_names, refused

PAGE = Pagination(page=1, page_size=20)


async def draft(
    db: AsyncSession, clinic: Clinic, author: Principal, **fields: object
) -> SessionNote:
    client = await factories.client(db, clinic.space)
    values: dict[str, object] = {
        "client_id": client.id,
        "session_date": today_in(clinic.space.time_zone),
        "subjective": "Reports a calmer week",
    }
    values.update(fields)
    return await notes.create_note(db, author, SessionNoteCreate.model_validate(values))


async def trainee_of(db: AsyncSession, clinic: Clinic, supervisor: Principal) -> Principal:
    """A clinician whose notes need a co-signature, supervised by `supervisor`."""
    user = await factories.user(db, clinic.space)
    user.requires_cosign = True
    user.supervisor_id = supervisor.user.id
    await db.flush()
    return Principal(user=Account.of(user), ip_address="203.0.113.10")


async def set_late_entry_hours(db: AsyncSession, clinic: Clinic, hours: int) -> None:
    await db.execute(
        update(Workspace).where(Workspace.id == clinic.space.id).values(late_entry_hours=hours)
    )


def expected_hash(note: Any) -> str:
    """The documented canonical form (docs/reference/api-resources.md), written out
    independently."""
    document = {
        "format": 1,
        "note_id": str(note.id),
        "client_id": str(note.client_id),
        "version": note.version,
        "session_date": note.session_date.isoformat(),
        "duration_minutes": note.duration_minutes,
        "subjective": note.subjective,
        "objective": note.objective,
        "assessment": note.assessment,
        "plan": note.plan,
    }
    canonical = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


async def test_a_note_records_its_author(db: AsyncSession, clinic: Clinic) -> None:
    note = await draft(db, clinic, clinic.clinician)
    assert note.author_id == clinic.clinician.user.id
    assert (note.signed_by, note.attestation_version, note.cosign_status) == (None, None, None)


async def test_signing_records_who_when_and_what_and_seals_the_content_hash(
    db: AsyncSession, clinic: Clinic
) -> None:
    note = await draft(db, clinic, clinic.clinician, plan="Weekly, Zoë")
    before = utc_now()
    signed = await notes.finalize_note(db, clinic.clinician, note.id, 1, 1)
    assert (signed.status, signed.version) == ("finalized", 2)
    assert signed.signed_by == clinic.clinician.user.id
    assert signed.attestation_version == 1
    assert signed.finalized_at is not None and signed.finalized_at >= before
    assert (signed.late_entry, signed.cosign_status) == (False, None)
    event = (await audit_events(db, clinic.space.id))[-1]
    assert (event.action, event.resource_ids) == ("session.finalize", [note.id])
    assert event.details is not None
    assert event.details["content_sha256"] == expected_hash(signed)
    assert event.details["attestation_version"] == 1
    assert "Zoë" not in json.dumps(event.details) and "calmer" not in json.dumps(event.details)


async def test_only_the_author_signs_and_only_the_current_statement(
    db: AsyncSession, clinic: Clinic
) -> None:
    note = await draft(db, clinic, clinic.clinician)
    colleague = await factories.principal(db, clinic.space)
    owner = await factories.principal(db, clinic.space, Role.OWNER)
    for other in (colleague, owner):
        with refused("not_the_author", 403):
            await notes.finalize_note(db, other, note.id, 1, 1)
    with refused("attestation_outdated", 422) as raised:
        await notes.finalize_note(db, clinic.clinician, note.id, 1, 2)
    assert field_names(raised.value) == {"attestation_version"}
    unchanged = await notes.read_note(db, clinic.clinician, note.id)
    assert (unchanged.status, unchanged.signed_by) == ("draft", None)


async def test_a_note_signed_after_the_practices_hours_is_a_late_entry(
    db: AsyncSession, clinic: Clinic
) -> None:
    today = today_in(clinic.space.time_zone)
    # No appointment: the session ended at the end of its day. Four days ago ended more than
    # 72 hours (the default) ago, yesterday less.
    old = await draft(db, clinic, clinic.clinician, session_date=today - timedelta(days=4))
    recent = await draft(db, clinic, clinic.clinician, session_date=today - timedelta(days=1))
    assert (await notes.finalize_note(db, clinic.clinician, old.id, 1, 1)).late_entry is True
    assert (await notes.finalize_note(db, clinic.clinician, recent.id, 1, 1)).late_entry is False
    event = (await audit_events(db, clinic.space.id))[-2]
    assert (event.action, event.details and event.details["late_entry"]) == (
        "session.finalize",
        True,
    )

    # With an appointment, its end counts; the practice's setting decides.
    client = await factories.client(db, clinic.space)
    ended = utc_now() - timedelta(hours=2)
    appointment = Appointment(
        workspace_id=clinic.space.id,
        client_id=client.id,
        clinician_id=clinic.clinician.user.id,
        starts_at=ended - timedelta(minutes=50),
        ends_at=ended,
    )
    db.add(appointment)
    await db.flush()
    await set_late_entry_hours(db, clinic, 1)
    late = await notes.create_note(
        db,
        clinic.clinician,
        SessionNoteCreate(
            client_id=client.id,
            appointment_id=appointment.id,
            session_date=today,
            subjective="Example",
        ),
    )
    assert (await notes.finalize_note(db, clinic.clinician, late.id, 1, 1)).late_entry is True
    await set_late_entry_hours(db, clinic, 3)
    timely = await notes.create_note(
        db,
        clinic.clinician,
        SessionNoteCreate(
            client_id=client.id,
            appointment_id=appointment.id,
            session_date=today,
            subjective="Example",
        ),
    )
    assert (await notes.finalize_note(db, clinic.clinician, timely.id, 1, 1)).late_entry is False


async def test_a_trainees_note_awaits_the_cosignature_of_a_supervisor_or_owner(
    db: AsyncSession, clinic: Clinic
) -> None:
    supervisor = clinic.clinician
    trainee = await trainee_of(db, clinic, supervisor)
    bystander = await factories.principal(db, clinic.space)
    owner = await factories.principal(db, clinic.space, Role.OWNER)
    note = await draft(db, clinic, trainee)
    signed = await notes.finalize_note(db, trainee, note.id, 1, 1)
    assert (signed.status, signed.cosign_status, signed.version) == ("finalized", "awaiting", 2)

    with refused("cosign_by_author", 403):
        await notes.cosign_note(db, trainee, note.id, 2, 1)
    with refused("not_a_supervisor", 403):
        await notes.cosign_note(db, bystander, note.id, 2, 1)
    with refused("version_conflict", 409):
        await notes.cosign_note(db, supervisor, note.id, 1, 1)
    with refused("attestation_outdated", 422) as raised:
        await notes.cosign_note(db, supervisor, note.id, 2, 9)
    assert field_names(raised.value) == {"attestation_version"}
    cosigned = await notes.cosign_note(db, supervisor, note.id, 2, 1)
    assert (cosigned.cosign_status, cosigned.cosigned_by) == ("cosigned", supervisor.user.id)
    assert cosigned.cosigned_at is not None and cosigned.cosign_attestation_version == 1
    assert (cosigned.version, cosigned.signed_by) == (3, trainee.user.id)
    event = (await audit_events(db, clinic.space.id))[-1]
    assert (event.action, event.resource_ids, event.actor_user_id) == (
        "session.cosign",
        [note.id],
        supervisor.user.id,
    )
    assert event.details is not None
    assert event.details["content_sha256"] == expected_hash(cosigned)
    with refused("not_awaiting_cosign", 409):
        await notes.cosign_note(db, owner, note.id, 3, 1)

    # An owner may co-sign any trainee's note; a note of a clinician who needs none, never.
    second = await draft(db, clinic, trainee)
    await notes.finalize_note(db, trainee, second.id, 1, 1)
    assert (await notes.cosign_note(db, owner, second.id, 2, 1)).cosigned_by == owner.user.id
    plain = await draft(db, clinic, bystander)
    await notes.finalize_note(db, bystander, plain.id, 1, 1)
    with refused("not_awaiting_cosign", 409):
        await notes.cosign_note(db, owner, plain.id, 2, 1)
    with refused("not_awaiting_cosign", 409):
        await notes.cosign_note(db, owner, (await draft(db, clinic, trainee)).id, 1, 1)


async def test_the_awaiting_list_holds_the_notes_the_caller_may_cosign(
    db: AsyncSession, clinic: Clinic
) -> None:
    supervisor = clinic.clinician
    trainee = await trainee_of(db, clinic, supervisor)
    bystander = await factories.principal(db, clinic.space)
    owner = await factories.principal(db, clinic.space, Role.OWNER)
    signed = await draft(db, clinic, trainee)
    await notes.finalize_note(db, trainee, signed.id, 1, 1)
    await draft(db, clinic, trainee)  # unsigned: not awaiting anyone yet

    async def awaiting(who: Principal) -> tuple[list[SessionNote], int]:
        return await notes.list_notes(db, who, PAGE, awaiting_my_cosign=True)

    for who, expected in ((supervisor, [signed.id]), (owner, [signed.id])):
        listed, total = await awaiting(who)
        assert ([n.id for n in listed], total) == (expected, 1)
    for who in (bystander, trainee):
        assert await awaiting(who) == ([], 0)
    event = (await audit_events(db, clinic.space.id))[-1]
    assert event.action == "session.list" and event.details is not None
    assert event.details["awaiting_cosign"] is True

    # The worklist of unsigned notes: the caller's drafts.
    drafts, total = await notes.list_notes(
        db, trainee, PAGE, status=NoteStatus.DRAFT, author_id=trainee.user.id
    )
    assert total == 1 and drafts[0].status == "draft" and drafts[0].author_id == trainee.user.id


async def test_an_amendment_needs_a_reason_and_is_kept_as_an_addendum(
    db: AsyncSession, clinic: Clinic
) -> None:
    note = await draft(db, clinic, clinic.clinician, plan="Weekly")
    # A reason is for amendments only: with a draft it is refused, and nothing is saved.
    with refused("not_signed", 409):
        await notes.save_changes(
            db, clinic.clinician, note.id, SessionNoteUpdate(version=1, plan="x", reason="why")
        )
    with refused("not_signed", 409):
        await notes.save_changes(
            db,
            clinic.clinician,
            note.id,
            SessionNoteUpdate(version=1, duration_minutes=30, reason="why"),
        )
    assert (await notes.read_note(db, clinic.clinician, note.id)).plan == "Weekly"
    await notes.finalize_note(db, clinic.clinician, note.id, 1, 1)

    for missing in ({}, {"reason": " \n "}):
        with refused("reason_required", 422) as raised:
            await notes.save_changes(
                db,
                clinic.clinician,
                note.id,
                SessionNoteUpdate.model_validate({"version": 2, "plan": "Fortnightly", **missing}),
            )
        assert field_names(raised.value) == {"reason"}
    colleague = await factories.principal(db, clinic.space)
    amended = await notes.save_changes(
        db,
        colleague,
        note.id,
        SessionNoteUpdate(version=2, plan="Fortnightly", reason="Frequency misheard"),
    )
    assert (amended.plan, amended.version, amended.author_id) == (
        "Fortnightly",
        3,
        clinic.clinician.user.id,
    )
    found = await notes.addenda(db, clinic.space.id, [amended])
    (addendum,) = found[note.id]
    assert (addendum.version, addendum.amended_by, addendum.reason) == (
        3,
        colleague.user.id,
        "Frequency misheard",
    )
    assert addendum.amended_at is not None
    versions, _ = await notes.list_versions(db, clinic.clinician, note.id, PAGE)
    assert [(v.version, v.plan, v.reason) for v in versions] == [
        (2, "Weekly", "Frequency misheard")
    ]  # the signed original is kept
    amend_event = [
        e for e in await audit_events(db, clinic.space.id) if e.action == "session.amend"
    ]
    assert amend_event[0].details is not None
    assert amend_event[0].details["content_sha256"] == expected_hash(amended)
    assert "misheard" not in json.dumps(amend_event[0].details)


async def test_supervision_is_stored_on_the_user(db: AsyncSession, clinic: Clinic) -> None:
    trainee = await trainee_of(db, clinic, clinic.clinician)
    row = await db.get(User, trainee.user.id)
    assert row is not None and (row.requires_cosign, row.supervisor_id) == (
        True,
        clinic.clinician.user.id,
    )
    assert trainee.user.requires_cosign is True
