from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.auth.models import Role, User
from carevault.auth.passwords import MIN_PASSWORD_LENGTH, hash_password
from carevault.workspaces.models import Workspace


class UserError(ValueError):
    """A user cannot be created as asked; the message says why."""


async def get_by_email(db: AsyncSession, email: str) -> User | None:
    statement = select(User).where(func.lower(User.email) == email.strip().lower())
    return (await db.execute(statement)).scalar_one_or_none()


async def create_user(
    db: AsyncSession,
    workspace: Workspace,
    *,
    email: str,
    password: str,
    role: Role,
    display_name: str = "",
) -> User:
    email = email.strip()
    if "@" not in email or len(email) > 320:
        raise UserError(f"{email!r} is not an email address")
    if len(password) < MIN_PASSWORD_LENGTH:
        raise UserError(f"the password must have at least {MIN_PASSWORD_LENGTH} characters")
    if await get_by_email(db, email) is not None:
        raise UserError(f"a user with email {email} already exists")
    user = User(
        workspace_id=workspace.id,
        email=email,
        display_name=display_name or email.split("@")[0],
        password_hash=hash_password(password),
        role=role.value,
    )
    db.add(user)
    await db.flush()
    return user
