"""The pgcrypto fallback: enable the extension where offered, install the SQL functions.

Where the server does not offer pgcrypto the migration still succeeds; the functions are
installed anyway (PL/pgSQL resolves pgcrypto's functions only when called) and the
application reports the database backend as unavailable.

Format 0x02, computed by these functions, is specified in docs/reference/stored-format.md and
reproduced byte for byte by carevault.crypto.envelope.seal_cbc_hmac.

Revision ID: 0002
Revises: 0001
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ENABLE_PGCRYPTO = """
DO $$
BEGIN
    CREATE EXTENSION IF NOT EXISTS pgcrypto;
EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'pgcrypto is not available here (%); the database backend stays off', SQLERRM;
END
$$;
"""

ENCRYPT = r"""
CREATE FUNCTION carevault_pgc_encrypt(plaintext bytea, key bytea, key_version bigint, context text)
RETURNS bytea LANGUAGE plpgsql VOLATILE PARALLEL SAFE AS $$
DECLARE
    enc_key bytea;
    mac_key bytea;
    iv bytea;
    body bytea;
BEGIN
    IF plaintext IS NULL THEN
        RETURN NULL;
    END IF;
    IF length(key) <> 32 THEN
        RAISE EXCEPTION 'carevault_pgc_encrypt: key must be 32 bytes';
    END IF;
    enc_key := hmac('carevault/pgcrypto/enc'::bytea, key, 'sha256');
    mac_key := hmac('carevault/pgcrypto/mac'::bytea, key, 'sha256');
    iv := gen_random_bytes(16);
    body := '\x02'::bytea || substring(int8send(key_version) FROM 5 FOR 4) || iv
        || encrypt_iv(plaintext, enc_key, iv, 'aes-cbc/pad:pkcs');
    RETURN body || hmac(body || convert_to(context, 'UTF8')
        || int8send(octet_length(convert_to(context, 'UTF8'))::bigint), mac_key, 'sha256');
END
$$
"""

DECRYPT = r"""
-- Opens a format-0x02 value. Returns 0x00 || plaintext on success, the stored value
-- unchanged when it is application-sealed (0x01), or 0xFF || reason || header on refusal:
-- 1 truncated, 2 unknown format, 3 key version not usable, 4 authentication failed.
CREATE FUNCTION carevault_pgc_decrypt(value bytea, versions bigint[], keys bytea[], context text)
RETURNS bytea LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    head bytea;
    slot integer;
    enc_key bytea;
    mac_key bytea;
    body bytea;
BEGIN
    IF value IS NULL THEN
        RETURN NULL;
    END IF;
    IF length(value) < 5 THEN
        RETURN '\xff01'::bytea;
    END IF;
    head := substring(value FROM 1 FOR 5);
    IF get_byte(value, 0) = 1 THEN
        RETURN value;
    ELSIF get_byte(value, 0) <> 2 THEN
        RETURN '\xff02'::bytea || head;
    END IF;
    IF length(value) < 69 OR (length(value) - 69) % 16 <> 0 THEN
        RETURN '\xff01'::bytea || head;
    END IF;
    slot := array_position(versions,
        ('x' || encode(substring(value FROM 2 FOR 4), 'hex'))::bit(32)::bigint);
    IF slot IS NULL THEN
        RETURN '\xff03'::bytea || head;
    END IF;
    enc_key := hmac('carevault/pgcrypto/enc'::bytea, keys[slot], 'sha256');
    mac_key := hmac('carevault/pgcrypto/mac'::bytea, keys[slot], 'sha256');
    body := substring(value FROM 1 FOR length(value) - 32);
    IF hmac(body || convert_to(context, 'UTF8')
            || int8send(octet_length(convert_to(context, 'UTF8'))::bigint), mac_key, 'sha256')
            <> substring(value FROM length(value) - 31) THEN
        RETURN '\xff04'::bytea || head;
    END IF;
    RETURN '\x00'::bytea || decrypt_iv(substring(body FROM 22), enc_key,
        substring(body FROM 6 FOR 16), 'aes-cbc/pad:pkcs');
END
$$
"""

VERIFY = r"""
-- True when a format-0x02 value authenticates under one of the keys; NULL for values the
-- database cannot check (application-sealed AES-GCM).
CREATE FUNCTION carevault_pgc_verify(value bytea, versions bigint[], keys bytea[], context text)
RETURNS boolean LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    opened bytea;
BEGIN
    IF value IS NULL OR length(value) < 1 OR get_byte(value, 0) = 1 THEN
        RETURN NULL;
    END IF;
    opened := carevault_pgc_decrypt(value, versions, keys, context);
    RETURN get_byte(opened, 0) = 0;
END
$$
"""


def upgrade() -> None:
    op.execute(ENABLE_PGCRYPTO)
    # One statement per call: asyncpg prepares each one.
    for function in (ENCRYPT, DECRYPT, VERIFY):
        op.execute(function)


def downgrade() -> None:
    op.execute("DROP FUNCTION IF EXISTS carevault_pgc_verify(bytea, bigint[], bytea[], text)")
    op.execute("DROP FUNCTION IF EXISTS carevault_pgc_decrypt(bytea, bigint[], bytea[], text)")
    op.execute("DROP FUNCTION IF EXISTS carevault_pgc_encrypt(bytea, bytea, bigint, text)")
