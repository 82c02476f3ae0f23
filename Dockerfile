# The CareVault app image. docker-compose.yml builds it for local use; the command it runs
# is up to the deployment (migrations with `carevault db upgrade`, then `carevault serve`).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    CAREVAULT_HOST=0.0.0.0 \
    CAREVAULT_PORT=8000

WORKDIR /app
COPY . .

# Installed in place (-e) rather than as a plain `pip install .`: the Alembic migrations
# live in backend/migrations, outside the `carevault` package, and carevault.db.migrate
# finds them relative to the source tree. A plain install would leave them behind and
# `carevault db upgrade` would fail. The code stays owned by root and read-only to the app.
RUN pip install -e . \
    && useradd --create-home --uid 10001 --shell /usr/sbin/nologin carevault

USER carevault
EXPOSE 8000
CMD ["carevault", "serve"]
