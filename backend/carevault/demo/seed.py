"""A demo practice with fake PHI, seeded once so `carevault run` shows something real."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, time, timedelta

from faker import Faker
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.appointments.models import Appointment, AppointmentStatus
from carevault.auth import service as auth_service
from carevault.auth.models import Role
from carevault.clients import phone_index
from carevault.clients.models import Client
from carevault.crypto import PracticeBlindIndex, current_cipher
from carevault.notes.models import NoteStatus, SessionNote
from carevault.notes.signing import CURRENT_SIGNATURE_VERSION
from carevault.workspaces import service as workspace_service
from carevault.workspaces.phones import read_phone

DEMO_WORKSPACE = "Demo Practice"
DEMO_OWNER_EMAIL = "owner@demo.carevault.local"
DEMO_CLINICIAN_EMAIL = "clinician@demo.carevault.local"
DEMO_PASSWORD = "carevault-demo"  # noqa: S105 (development only; printed by `carevault run`)
DEMO_CLIENTS = 12

_SUBJECTIVE = [
    "Reports sleeping better since last visit; still wakes around 4am.",
    "Describes a stressful week at work and two arguments with a partner.",
    "Says the lower-back pain is down to 3/10 after the home exercises.",
    "Feels anxious before the family gathering this weekend.",
]
_OBJECTIVE = [
    "Calm, good eye contact, speech normal in rate and volume.",
    "Lumbar flexion improved to 70 degrees; no radiating pain.",
    "Restless in session; fidgeting, rapid speech at times.",
]
_ASSESSMENT = [
    "Progressing toward goals; coping strategies are being used.",
    "Symptoms stable; avoidance remains the main barrier.",
    "Improving mobility; adherence to the programme is good.",
]
_PLAN = [
    "Continue weekly sessions; practise the breathing exercise daily.",
    "Add thought record homework; review next session.",
    "Progress to loaded exercises; reassess in two weeks.",
]


async def seed_demo(db: AsyncSession, *, today: date | None = None) -> bool:
    """Create the demo practice unless it exists. Returns True when it was created."""
    workspace, created = await workspace_service.get_or_create(db, DEMO_WORKSPACE)
    if not created:
        return False
    owner = await auth_service.create_user(
        db,
        workspace,
        email=DEMO_OWNER_EMAIL,
        password=DEMO_PASSWORD,
        role=Role.OWNER,
        display_name="Dr. Demo Owner",
    )
    clinician = await auth_service.create_user(
        db,
        workspace,
        email=DEMO_CLINICIAN_EMAIL,
        password=DEMO_PASSWORD,
        role=Role.CLINICIAN,
        display_name="Demo Clinician",
    )
    fake = Faker()
    Faker.seed(20261123)
    rng = random.Random(20261123)  # noqa: S311 (repeatable demo data, not security)
    index = PracticeBlindIndex(current_cipher())
    scope = str(workspace.id)
    clients = []
    for _ in range(DEMO_CLIENTS):
        email = fake.unique.email()
        # 555-0100 to 555-0199: the numbers reserved for fiction in North America, written
        # as a US clinician would (the demo practice's region is US).
        phone = f"({rng.randint(201, 989)}) 555-01{rng.randint(0, 99):02d}"
        client = Client(
            workspace_id=workspace.id,
            first_name=fake.first_name(),
            last_name=fake.last_name(),
            email=email,
            phone=phone,
            date_of_birth=fake.date_of_birth(minimum_age=18, maximum_age=85),
            address=fake.address().replace("\n", ", "),
            emergency_contact_name=fake.name(),
            emergency_contact_phone=f"+1 {rng.randint(201, 989)} 555 01{rng.randint(0, 99):02d}",
            medical_history=rng.choice(
                ["Generalised anxiety", "Chronic lower-back pain", "Mild depression", None]
            ),
            notes=rng.choice(["Prefers morning appointments", "Pays by card", None]),
            email_bidx=index.email(email, scope),
            **phone_index.index_columns(index, read_phone(phone, workspace.phone_region), scope),
        )
        clients.append(client)
    db.add_all(clients)
    await db.flush()

    today = today or datetime.now(UTC).date()
    monday = today - timedelta(days=today.weekday())
    last_workday = today - timedelta(days=1)
    while last_workday.weekday() >= 5:
        last_workday -= timedelta(days=1)
    for day_offset in range(-7, 5):
        day = monday + timedelta(days=day_offset)
        if day.weekday() >= 5:
            continue
        for slot, hour in enumerate((9, 11, 14)):
            client = clients[(day_offset * 3 + slot) % len(clients)]
            starts = datetime.combine(day, time(hour), tzinfo=UTC)
            past = day < today
            status = AppointmentStatus.ATTENDED if past else AppointmentStatus.SCHEDULED
            if past and rng.random() < 0.1:
                status = rng.choice([AppointmentStatus.CANCELLED, AppointmentStatus.NO_SHOW])
            appointment = Appointment(
                workspace_id=workspace.id,
                client_id=client.id,
                # Two calendars: the owner's mornings, the clinician's afternoons.
                clinician_id=(owner if hour < 12 else clinician).id,
                room="Room 1" if hour < 12 else "Room 2",
                starts_at=starts,
                ends_at=starts + timedelta(minutes=50),
                status=status.value,
                location=rng.choice(["Room 1", "Room 2", "Video call"]),
            )
            db.add(appointment)
            await db.flush()
            if status is not AppointmentStatus.ATTENDED:
                continue
            # The last working day's notes are still drafts: the clinician is writing them up.
            draft = day == last_workday
            db.add(
                SessionNote(
                    workspace_id=workspace.id,
                    client_id=client.id,
                    appointment_id=appointment.id,
                    session_date=day,
                    duration_minutes=50,
                    status=(NoteStatus.DRAFT if draft else NoteStatus.FINALIZED).value,
                    author_id=clinician.id,
                    finalized_at=None if draft else starts + timedelta(hours=1),
                    signed_by=None if draft else clinician.id,
                    attestation_version=None if draft else CURRENT_SIGNATURE_VERSION,
                    subjective=rng.choice(_SUBJECTIVE),
                    objective=rng.choice(_OBJECTIVE),
                    assessment=None if draft else rng.choice(_ASSESSMENT),
                    plan=None if draft else rng.choice(_PLAN),
                )
            )
    await db.flush()
    return True
