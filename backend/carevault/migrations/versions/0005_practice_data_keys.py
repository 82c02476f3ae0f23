"""Practice data keys (wrapped under the master ring) and crypto-shredding.

Values sealed from now on (format 0x03) use the data key of their practice and the master
version named in their header; `workspace_keys` holds those data keys, each wrapped under
the master version of the same number (`key_version` = `wrapped_under`), and, as
`key_version` 0, the practice's blind-index key, wrapped under the master version named in
`wrapped_under` (rewrapped by `carevault reencrypt` after a rotation). The keys themselves
are created by the application (`carevault keys provision`, run at every start), never by
SQL, because only it holds the master ring.

Revision ID: 0005
Revises: 0004
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


# Format 0x04 (docs/reference/stored-format.md): 0x02's construction under the practice's data key, with the
# row's ids first in the MAC's context. `packed` = version (4) | data key (32) | workspace id
# (16) | row id (16) | plaintext: one bound parameter, built by the application for exactly
# this value, so a statement carries only the one key it seals with.
SEAL_BOUND = r"""
CREATE FUNCTION carevault_pgc_seal_bound(packed bytea, context text)
RETURNS bytea LANGUAGE plpgsql VOLATILE PARALLEL SAFE AS $$
DECLARE
    data_key bytea;
    iv bytea;
    body bytea;
    bound_context bytea;
BEGIN
    IF packed IS NULL THEN
        RETURN NULL;
    END IF;
    IF length(packed) < 68 THEN
        RAISE EXCEPTION 'carevault_pgc_seal_bound: malformed parameter';
    END IF;
    data_key := substring(packed FROM 5 FOR 32);
    iv := gen_random_bytes(16);
    body := '\x04'::bytea || substring(packed FROM 1 FOR 4) || iv
        || encrypt_iv(substring(packed FROM 69),
                      hmac('carevault/pgcrypto/enc'::bytea, data_key, 'sha256'), iv,
                      'aes-cbc/pad:pkcs');
    bound_context := substring(packed FROM 37 FOR 32) || convert_to(context, 'UTF8');
    RETURN body || hmac(body || bound_context || int8send(octet_length(bound_context)::bigint),
                        hmac('carevault/pgcrypto/mac'::bytea, data_key, 'sha256'), 'sha256');
END
$$
"""

# Opens a format-0x04 value of the row (workspace, row_id) with the data keys of `practice`,
# the only practice whose keys the statement carries. Returns 0x00 || plaintext, or 0xFF ||
# reason || header: 1 truncated, 2 not format 0x04, 3 key version not sent, 4 authentication
# failed, 5 the row belongs to another practice than the keys sent.
OPEN_BOUND = r"""
CREATE FUNCTION carevault_pgc_open_bound(value bytea, workspace uuid, row_id uuid,
                                         practice uuid, versions bigint[], keys bytea[],
                                         context text)
RETURNS bytea LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    head bytea;
    slot integer;
    body bytea;
    bound_context bytea;
BEGIN
    IF value IS NULL THEN
        RETURN NULL;
    END IF;
    IF length(value) < 5 THEN
        RETURN '\xff01'::bytea;
    END IF;
    head := substring(value FROM 1 FOR 5);
    IF get_byte(value, 0) <> 4 THEN
        RETURN '\xff02'::bytea || head;
    END IF;
    IF length(value) < 69 OR (length(value) - 69) % 16 <> 0 THEN
        RETURN '\xff01'::bytea || head;
    END IF;
    IF practice IS NULL OR workspace IS DISTINCT FROM practice THEN
        RETURN '\xff05'::bytea || head;
    END IF;
    slot := array_position(versions,
        ('x' || encode(substring(value FROM 2 FOR 4), 'hex'))::bit(32)::bigint);
    IF slot IS NULL THEN
        RETURN '\xff03'::bytea || head;
    END IF;
    body := substring(value FROM 1 FOR length(value) - 32);
    bound_context := uuid_send(workspace) || uuid_send(row_id) || convert_to(context, 'UTF8');
    IF hmac(body || bound_context || int8send(octet_length(bound_context)::bigint),
            hmac('carevault/pgcrypto/mac'::bytea, keys[slot], 'sha256'), 'sha256')
            <> substring(value FROM length(value) - 31) THEN
        RETURN '\xff04'::bytea || head;
    END IF;
    RETURN '\x00'::bytea || decrypt_iv(substring(body FROM 22),
        hmac('carevault/pgcrypto/enc'::bytea, keys[slot], 'sha256'),
        substring(body FROM 6 FOR 16), 'aes-cbc/pad:pkcs');
END
$$
"""


def upgrade() -> None:
    op.create_table(
        "workspace_keys",
        sa.Column("workspace_id", sa.Uuid(), nullable=False),
        sa.Column("key_version", sa.BigInteger(), nullable=False),
        sa.Column("wrapped_under", sa.BigInteger(), nullable=False),
        sa.Column("wrapped_key", sa.LargeBinary(), nullable=False),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.CheckConstraint(
            "key_version BETWEEN 0 AND 4294967295 AND wrapped_under BETWEEN 1 AND 4294967295 "
            "AND (key_version = 0 OR key_version = wrapped_under)",
            name=op.f("ck_workspace_keys_versions"),
        ),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspaces.id"],
            name=op.f("fk_workspace_keys_workspace_id_workspaces"),
            ondelete="RESTRICT",
        ),
        sa.PrimaryKeyConstraint("workspace_id", "key_version", name=op.f("pk_workspace_keys")),
    )
    op.add_column("workspaces", sa.Column("shredded_at", sa.DateTime(timezone=True), nullable=True))
    # PL/pgSQL resolves pgcrypto's functions only when called: this works without pgcrypto.
    op.execute(SEAL_BOUND)
    op.execute(OPEN_BOUND)


def downgrade() -> None:
    op.execute(
        "DROP FUNCTION IF EXISTS carevault_pgc_open_bound(bytea, uuid, uuid, uuid, bigint[], "
        "bytea[], text)"
    )
    op.execute("DROP FUNCTION IF EXISTS carevault_pgc_seal_bound(bytea, text)")
    op.drop_column("workspaces", "shredded_at")
    op.drop_table("workspace_keys")
