"""carevault.notes.service called directly: drafts, autosave at a version, finalize, amend
with history, soft delete and restore, listing; each change audited with ids, versions and
field names, never the note's content."""

from __future__ import annotations

import json
import uuid
from datetime import date, timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from carevault.auth.models import Role
from carevault.clients.models import Client
from carevault.core.paging import Pagination
from carevault.notes import service as notes
from carevault.notes import signing
from carevault.notes.models import NoteStatus, SessionNote
from carevault.notes.schemas import SessionNoteCreate, SessionNoteUpdate
from carevault.workspaces.time import today_in
from tests.support import factories
from tests.support.services import Clinic, audit_events, field_names, refused, summary

SESSION_DATE = date(2025, 1, 15)
PAGE = Pagination(page=1, page_size=20)


def draft_of(client: Client, **fields: object) -> SessionNoteCreate:
    values: dict[str, object] = {
        "client_id": client.id,
        "session_date": SESSION_DATE,
        "subjective": "Reports a calmer week",
    }
    values.update(fields)
    return SessionNoteCreate.model_validate(values)


def change(version: int, **fields: object) -> SessionNoteUpdate:
    return SessionNoteUpdate.model_validate({"version": version, **fields})


async def new_draft(db: AsyncSession, clinic: Clinic, **fields: object) -> SessionNote:
    client = await factories.client(db, clinic.space)
    return await notes.create_note(db, clinic.clinician, draft_of(client, **fields))


async def test_a_draft_is_created_at_version_1_and_audited_without_content(
    db: AsyncSession, clinic: Clinic
) -> None:
    client = await factories.client(db, clinic.space)
    note = await notes.create_note(db, clinic.clinician, draft_of(client, plan="Weekly CBT"))
    assert (note.status, note.version, note.workspace_id) == ("draft", 1, clinic.space.id)
    assert (note.subjective, note.plan, note.finalized_at) == (
        "Reports a calmer week",
        "Weekly CBT",
        None,
    )
    (event,) = await audit_events(db, clinic.space.id)
    assert (event.action, event.resource_type, event.resource_ids) == (
        "session.create",
        "session",
        [note.id],
    )
    assert event.details == {"client_id": str(client.id), "version": 1}
    assert (event.actor_user_id, str(event.ip_address)) == (clinic.clinician.user.id, "203.0.113.9")


async def test_a_note_needs_a_client_and_an_appointment_of_its_own_workspace(
    db: AsyncSession, clinic: Clinic
) -> None:
    elsewhere = await factories.workspace(db)
    stranger = await factories.client(db, elsewhere)
    with refused("not_found", 404):
        await notes.create_note(db, clinic.clinician, draft_of(stranger))

    client = await factories.client(db, clinic.space)
    other_client = await factories.client(db, clinic.space)
    theirs = await factories.appointment(db, clinic.space, other_client)
    with refused("appointment_client_mismatch", 422) as raised:
        await notes.create_note(db, clinic.clinician, draft_of(client, appointment_id=theirs.id))
    assert field_names(raised.value) == {"appointment_id"}
    foreign = await factories.appointment(db, elsewhere, stranger)
    with refused("not_found"):
        await notes.create_note(db, clinic.clinician, draft_of(client, appointment_id=foreign.id))
    assert await audit_events(db, clinic.space.id) == []


async def test_a_session_date_after_the_practices_today_is_refused(db: AsyncSession) -> None:
    # UTC-11: the date it already is at UTC+14 is always after the practice's today.
    space = await factories.workspace(db, time_zone="Pacific/Pago_Pago")
    clinician = await factories.principal(db, space)
    client = await factories.client(db, space)
    tomorrow_there = today_in("Pacific/Kiritimati")
    with refused("validation_error", 422) as raised:
        await notes.create_note(db, clinician, draft_of(client, session_date=tomorrow_there))
    assert field_names(raised.value) == {"session_date"}
    note = await notes.create_note(db, clinician, draft_of(client))
    with refused("validation_error"):
        await notes.save_changes(db, clinician, note.id, change(1, session_date=tomorrow_there))


async def test_a_read_is_audited_and_another_workspaces_note_is_not_found(
    db: AsyncSession, clinic: Clinic
) -> None:
    note = await new_draft(db, clinic)
    assert (await notes.read_note(db, clinic.clinician, note.id)).id == note.id

    elsewhere = await factories.workspace(db)
    outsider = await factories.principal(db, elsewhere, Role.OWNER)
    with refused("not_found", 404):
        await notes.read_note(db, outsider, note.id)
    with refused("not_found"):
        await notes.read_note(db, clinic.clinician, uuid.uuid4())
    assert [e.action for e in await audit_events(db, clinic.space.id)] == [
        "session.create",
        "session.read",
    ]
    assert await audit_events(db, elsewhere.id) == []


async def test_autosave_changes_only_the_fields_sent_and_bumps_the_version(
    db: AsyncSession, clinic: Clinic
) -> None:
    note = await new_draft(db, clinic, objective="Calm")
    saved = await notes.save_changes(
        db, clinic.clinician, note.id, change(1, plan="Continue", subjective="Better")
    )
    assert (saved.version, saved.status) == (2, "draft")
    assert (saved.subjective, saved.objective, saved.plan) == ("Better", "Calm", "Continue")
    again = await notes.save_changes(db, clinic.clinician, note.id, change(2, plan=None))
    assert (again.version, again.plan, again.subjective) == (3, None, "Better")
    events = await audit_events(db, clinic.space.id)
    assert summary(events)[1:] == [
        ("session.update", [note.id], {"fields": ["plan", "subjective"], "version": 2}),
        ("session.update", [note.id], {"fields": ["plan"], "version": 3}),
    ]


async def test_a_save_at_a_stale_version_is_a_conflict_and_changes_nothing(
    db: AsyncSession, clinic: Clinic
) -> None:
    note = await new_draft(db, clinic)
    await notes.save_changes(db, clinic.clinician, note.id, change(1, plan="First tab"))
    with refused("version_conflict", 409) as raised:
        await notes.save_changes(db, clinic.clinician, note.id, change(1, plan="Second tab"))
    assert raised.value.details == {"current_version": 2}
    db.expunge_all()
    current = await notes.read_note(db, clinic.clinician, note.id)
    assert (current.version, current.plan) == (2, "First tab")
    with refused("no_changes", 422):
        await notes.save_changes(db, clinic.clinician, note.id, change(2))
    with refused("not_found"):
        await notes.save_changes(db, clinic.clinician, uuid.uuid4(), change(1, plan="x"))


async def test_finalize_needs_the_current_version_and_some_content(
    db: AsyncSession, clinic: Clinic
) -> None:
    empty = await new_draft(db, clinic, subjective="   ")
    with refused("empty_note", 422) as raised:
        await notes.finalize_note(db, clinic.clinician, empty.id, 1, 1)
    assert field_names(raised.value) == {"subjective", "objective", "assessment", "plan"}

    note = await new_draft(db, clinic)
    with refused("version_conflict", 409):
        await notes.finalize_note(db, clinic.clinician, note.id, 7, 1)
    final = await notes.finalize_note(db, clinic.clinician, note.id, 1, 1)
    assert (final.status, final.version) == (NoteStatus.FINALIZED.value, 2)
    assert final.finalized_at is not None
    with refused("already_finalized", 409) as raised:
        await notes.finalize_note(db, clinic.clinician, note.id, 2, 1)
    assert raised.value.details == {"current_version": 2}
    finalized = [e for e in await audit_events(db, clinic.space.id) if e.action.endswith("ize")]
    assert summary(finalized) == [
        (
            "session.finalize",
            [note.id],
            {
                "version": 2,
                "attestation_version": 1,
                "content_sha256": signing.content_hash(final),
                "late_entry": True,  # the session was in January 2025
                "cosign_status": None,
            },
        )
    ]


async def test_amending_a_finalized_note_keeps_the_replaced_content(
    db: AsyncSession, clinic: Clinic
) -> None:
    note = await new_draft(db, clinic, plan="Weekly")
    await notes.finalize_note(db, clinic.clinician, note.id, 1, 1)
    amended = await notes.save_changes(
        db, clinic.clinician, note.id, change(2, plan="Fortnightly", reason="Misheard")
    )
    assert (amended.status, amended.version, amended.plan) == ("finalized", 3, "Fortnightly")

    versions, total = await notes.list_versions(db, clinic.clinician, note.id, PAGE)
    assert total == 1
    (kept,) = versions
    assert (kept.version, kept.plan, kept.subjective) == (2, "Weekly", "Reports a calmer week")
    assert (kept.amended_by, kept.reason) == (clinic.clinician.user.id, "Misheard")
    events = summary(await audit_events(db, clinic.space.id))
    assert events[-2:] == [
        (
            "session.amend",
            [note.id],
            {
                "fields": ["plan"],
                "previous_version": 2,
                "version": 3,
                "content_sha256": signing.content_hash(amended),
            },
        ),
        ("session.versions_read", [note.id], {"versions": [2]}),
    ]


async def test_an_amendment_cannot_change_the_date_or_empty_the_note(
    db: AsyncSession, clinic: Clinic
) -> None:
    note = await new_draft(db, clinic)
    await notes.finalize_note(db, clinic.clinician, note.id, 1, 1)
    with refused("finalized_field_locked", 422) as raised:
        await notes.save_changes(
            db,
            clinic.clinician,
            note.id,
            change(2, session_date=SESSION_DATE - timedelta(1), reason="Wrong day"),
        )
    assert field_names(raised.value) == {"session_date"}
    with refused("empty_note", 422):
        await notes.save_changes(
            db, clinic.clinician, note.id, change(2, subjective=None, reason="Wrong note")
        )
    with refused("version_conflict", 409):
        await notes.save_changes(db, clinic.clinician, note.id, change(1, plan="stale tab"))
    versions, _ = await notes.list_versions(db, clinic.clinician, note.id, PAGE)
    assert versions == []


async def test_a_deleted_note_is_hidden_until_restored(db: AsyncSession, clinic: Clinic) -> None:
    note = await new_draft(db, clinic)
    await notes.delete_note(db, clinic.clinician, note.id)
    with refused("not_found"):
        await notes.read_note(db, clinic.clinician, note.id)
    with refused("not_found"):
        await notes.delete_note(db, clinic.clinician, note.id)
    with refused("not_found"):
        await notes.save_changes(db, clinic.clinician, note.id, change(1, plan="x"))
    listed, total = await notes.list_notes(db, clinic.clinician, PAGE)
    assert (listed, total) == ([], 0)
    listed, total = await notes.list_notes(db, clinic.clinician, PAGE, include_deleted=True)
    assert [n.id for n in listed] == [note.id] and total == 1
    assert listed[0].deleted_at is not None

    restored = await notes.restore_note(db, clinic.clinician, note.id)
    assert restored.deleted_at is None
    assert (await notes.read_note(db, clinic.clinician, note.id)).id == note.id
    await notes.restore_note(db, clinic.clinician, note.id)  # not deleted: returned as it is
    events = summary(await audit_events(db, clinic.space.id))
    restores = [event for event in events if event[0] in ("session.delete", "session.restore")]
    assert restores == [
        ("session.delete", [note.id], None),
        ("session.restore", [note.id], {"restored": True}),
        ("session.restore", [note.id], {"restored": False}),
    ]


async def test_the_list_is_newest_first_filtered_by_client_and_audited_by_id(
    db: AsyncSession, clinic: Clinic
) -> None:
    ada = await factories.client(db, clinic.space)
    grace = await factories.client(db, clinic.space, first_name="Grace", last_name="Hopper")
    older = await notes.create_note(db, clinic.clinician, draft_of(ada))
    newer = await notes.create_note(
        db, clinic.clinician, draft_of(ada, session_date=SESSION_DATE + timedelta(7))
    )
    hers = await notes.create_note(db, clinic.clinician, draft_of(grace))
    elsewhere = await factories.workspace(db)
    await new_draft(db, Clinic(elsewhere, await factories.principal(db, elsewhere)))

    everything, total = await notes.list_notes(db, clinic.clinician, PAGE)
    assert total == 3 and everything[0].id == newer.id
    assert {n.id for n in everything} == {older.id, newer.id, hers.id}
    listed, total = await notes.list_notes(db, clinic.clinician, PAGE, client_id=ada.id)
    assert [n.id for n in listed] == [newer.id, older.id] and total == 2
    second_page, total = await notes.list_notes(
        db, clinic.clinician, Pagination(page=2, page_size=1), client_id=ada.id
    )
    assert [n.id for n in second_page] == [older.id] and total == 2

    events = await audit_events(db, clinic.space.id)
    lists = [(e.resource_ids, e.details) for e in events if e.action == "session.list"]
    assert lists == [
        ([n.id for n in everything], {"client_id": None, "include_deleted": False, "count": 3}),
        ([newer.id, older.id], {"client_id": str(ada.id), "include_deleted": False, "count": 2}),
        ([older.id], {"client_id": str(ada.id), "include_deleted": False, "count": 1}),
    ]
    for event in events:
        assert "calmer" not in json.dumps(event.details)
