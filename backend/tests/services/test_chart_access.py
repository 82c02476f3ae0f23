"""The chart-access helper (carevault.clients.access) on the services' own statements."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

from sqlalchemy.ext.asyncio import AsyncSession

from carevault.appointments import service as appointments
from carevault.auth.models import Role
from carevault.auth.principal import Principal
from carevault.clients import access
from carevault.clients.models import Client
from carevault.db.scoping import in_workspace
from tests.support import factories

# The week of factories.appointment's booking.
START, END = datetime(2026, 11, 16, tzinfo=UTC), datetime(2026, 11, 23, tzinfo=UTC)


async def test_chart_access_decides_who_sees_the_clients_appointments(db: AsyncSession) -> None:
    space = await factories.workspace(db)
    person = await factories.client(db, space)
    await factories.appointment(db, space, person)
    clinician = await factories.principal(db, space)
    owner = await factories.principal(db, space, Role.OWNER)

    async def visible(principal: Principal) -> int:
        return len(await appointments.list_appointments(db, principal, START, END))

    # practice (the default): everyone sees the chart; the helper adds nothing.
    assert access.chart_filter(clinician, Client) is None
    assert await visible(clinician) == 1
    # care_team: owners still see every chart.
    owner_restricted = dataclasses.replace(owner, chart_access="care_team")
    assert access.chart_filter(owner_restricted, Client) is None
    assert await visible(owner_restricted) == 1
    # A clinician outside the team sees nothing; on it, the chart.
    restricted = dataclasses.replace(clinician, chart_access="care_team")
    assert access.chart_filter(restricted, Client) is not None
    assert await visible(restricted) == 0
    assert await access.visible_client_ids(db, restricted) == set()
    await access.add_to_care_team(db, space.id, person.id, [restricted.user.id])
    assert await visible(restricted) == 1
    assert await access.visible_client_ids(db, restricted) == {person.id}


async def test_an_unknown_policy_is_read_as_care_team(db: AsyncSession) -> None:
    space = await factories.workspace(db)
    await factories.client(db, space)
    clinician = dataclasses.replace(await factories.principal(db, space), chart_access="?")
    assert not clinician.sees_every_chart
    found = await db.scalar(
        access.charted(
            in_workspace(Client, space.id).with_only_columns(Client.id), clinician, Client
        )
    )
    assert found is None
