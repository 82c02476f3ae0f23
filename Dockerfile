# CareVault's images; docker-compose.yml builds two of them (targets `secrets` and `app`).
#
#   ui       Node builds the web UI (frontend/ -> frontend/dist)
#   wheel    the carevault wheel, with the migrations and the built UI inside the package;
#            beside it the production dependencies exported from uv.lock (hashes included)
#            and their CycloneDX SBOM
#   secrets  moto's Secrets Manager with its writes journaled to a volume
#            (tools/persistent_moto.py), for Compose only
#   app      python:3.11-slim with the locked dependencies (pip --require-hashes: the bytes
#            `make install` and CI install) and the wheel (not editable, no source tree); the
#            SBOM at /usr/share/carevault/sbom/. The
#            default target. The command is up to the deployment: `carevault db upgrade`,
#            `carevault keys init`, then `carevault serve` (see docker-compose.yml).

ARG PYTHON_IMAGE=python:3.11-slim
ARG NODE_IMAGE=node:20-slim

FROM ${NODE_IMAGE} AS ui
WORKDIR /src/frontend
# The lock first: the dependency layer is reused until package-lock.json changes.
COPY frontend/package.json frontend/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY frontend/ ./
RUN npm run build \
    && npm sbom --sbom-format cyclonedx --omit dev --package-lock-only > sbom.cdx.json

FROM ${PYTHON_IMAGE} AS wheel
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
# uv (itself hash-checked) reads the lock; the sbom group is CycloneDX's tool alone.
COPY requirements/uv.txt requirements/uv.txt
RUN pip install --require-hashes -r requirements/uv.txt
COPY pyproject.toml uv.lock README.md ./
RUN mkdir -p /wheels/sbom \
    && uv export --frozen --no-dev --no-emit-project --format requirements-txt \
        --output-file /wheels/requirements.txt \
    && uv export --frozen --only-group sbom --no-emit-project --format requirements-txt \
        --output-file /tmp/sbom-tool.txt \
    && pip install --require-hashes --no-deps -r /tmp/sbom-tool.txt \
    && cyclonedx-py requirements --output-reproducible --of JSON --pyproject pyproject.toml \
        -o /wheels/sbom/carevault-python.cdx.json /wheels/requirements.txt
COPY backend/carevault backend/carevault
# Package data (pyproject.toml): carevault/web is where an installed app looks for the UI.
COPY --from=ui /src/frontend/dist backend/carevault/web
COPY --from=ui /src/frontend/sbom.cdx.json /wheels/sbom/carevault-ui.cdx.json
RUN pip wheel --no-deps --wheel-dir /wheels .

FROM ${PYTHON_IMAGE} AS secrets
ARG MOTO_VERSION=5.2.5
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
RUN pip install "moto[server]==${MOTO_VERSION}" \
    && useradd --create-home --uid 10002 --shell /usr/sbin/nologin secrets \
    && install -d -o secrets -g secrets -m 0700 /var/lib/carevault-secrets
COPY tools/persistent_moto.py /opt/persistent_moto.py
USER secrets
EXPOSE 5000
# The journal holds the key ring: docker-compose.yml mounts a volume of its own here.
CMD ["python", "/opt/persistent_moto.py", "--host", "0.0.0.0", "--port", "5000", \
     "--journal", "/var/lib/carevault-secrets/journal.jsonl"]

FROM ${PYTHON_IMAGE} AS app
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    CAREVAULT_HOST=0.0.0.0 \
    CAREVAULT_PORT=8000
COPY --from=wheel /wheels /tmp/wheels
# A plain install: code, migrations and UI all come from site-packages, owned by root and
# read-only to the app's user. /var/lib/carevault/audit is where Compose keeps the audit
# checkpoints (a volume: they must outlive the container).
RUN pip install --require-hashes --no-deps -r /tmp/wheels/requirements.txt \
    && pip install --no-deps /tmp/wheels/carevault-*.whl \
    && install -d /usr/share/carevault && cp -r /tmp/wheels/sbom /usr/share/carevault/sbom \
    && rm -rf /tmp/wheels \
    && useradd --create-home --uid 10001 --shell /usr/sbin/nologin carevault \
    && install -d -o carevault -g carevault -m 0700 /var/lib/carevault/audit
USER carevault
WORKDIR /home/carevault
EXPOSE 8000
CMD ["carevault", "serve"]
