"""The CapabilityStatement and the SMART configuration: what /fhir/R4 does, in one table.

`RESOURCES` is checked against the registered routes by tests/api/test_fhir.py (every
interaction claimed has its route, every route is claimed), so the statement cannot claim
what the server does not do.
"""

from __future__ import annotations

from typing import Any

import carevault
from carevault.auth.scopes import SMART_CONTEXTS, SMART_RESOURCES
from carevault.fhir import mapping

# Resource type -> (interactions, search parameters with their types, versioning, notes).
CURRENT_ONLY = (
    "vread and _history answer the current version only: CareVault keeps no earlier "
    "versions of this record"
)
RESOURCES: dict[str, dict[str, Any]] = {
    "Patient": {
        "interactions": ["read", "vread", "history-instance", "search-type", "create", "update"],
        "search": {
            "_id": "token", "identifier": "token", "family": "string", "given": "string",
            "name": "string", "birthdate": "date", "email": "token", "phone": "token",
            "telecom": "token", "_lastUpdated": "date", "active": "token",
        },
        "versioning": "versioned-update",
        "documentation": "A client. Searches answer summaries (names, birth date, active; "
        "tagged SUBSETTED); read answers the whole chart. " + CURRENT_ONLY + ". Search email "
        "and phone with POST Patient/_search: they are PHI and never belong in a URL.",
        "conditionalCreate": True,
    },
    "Appointment": {
        "interactions": ["read", "vread", "history-instance", "search-type", "create", "update"],
        "search": {
            "_id": "token", "identifier": "token", "date": "date", "patient": "reference",
            "practitioner": "reference", "status": "token", "_lastUpdated": "date",
        },
        "versioning": "versioned-update",
        "documentation": "A calendar entry. Search needs date=ge…&date=le… (at most 62 days) "
        "unless it names an identifier (the integrator's external_id). " + CURRENT_ONLY + ".",
        "conditionalCreate": True,
    },
    "Encounter": {
        "interactions": ["read", "search-type"],
        "search": {
            "_id": "token", "patient": "reference", "date": "date",
            "practitioner": "reference", "status": "token",
        },
        "versioning": "versioned",
        "documentation": "A therapy session, from its note (drafts included, in-progress).",
    },
    "DocumentReference": {
        "interactions": ["read", "vread", "history-instance", "search-type"],
        "search": {
            "_id": "token", "patient": "reference", "date": "date",
            "practitioner": "reference", "status": "token",
        },
        "versioning": "versioned",
        "documentation": "A signed session note (US Core clinical-note, LOINC 11506-3), its "
        "SOAP text a base64 text/plain attachment; every amendment is a version (vread, "
        "_history) and a relatesTo appends.",
    },
    "Provenance": {
        "interactions": ["read", "search-type"],
        "search": {"target": "reference", "patient": "reference"},
        "versioning": "no-version",
        "documentation": "A note's signature and co-signature.",
    },
    "Practitioner": {
        "interactions": ["read", "search-type"],
        "search": {"_id": "token"},
        "versioning": "no-version",
        "documentation": "A user of the practice.",
    },
    "PractitionerRole": {
        "interactions": ["read", "search-type"],
        "search": {"_id": "token"},
        "versioning": "no-version",
        "documentation": "A user's role (owner or clinician) in the practice.",
    },
    "Organization": {
        "interactions": ["read", "search-type"],
        "search": {"_id": "token"},
        "versioning": "no-version",
        "documentation": "The practice.",
    },
    "AuditEvent": {
        "interactions": ["search-type"],
        "search": {
            "date": "date", "patient": "reference", "entity": "reference", "agent": "reference",
        },
        "versioning": "no-version",
        "documentation": "The audit trail, read-only, owners only (audit:read).",
    },
}  # fmt: skip
COMMON_SEARCH = {"_count": "number", "_cursor": "string"}
# Operations (carevault.exports, docs/how-to/export.md): a client's whole record, and the practice's
# bulk export (FHIR Bulk Data, system level).
OPERATIONS: dict[str, list[dict[str, str]]] = {
    "Patient": [
        {
            "name": "everything",
            "definition": "http://hl7.org/fhir/OperationDefinition/Patient-everything",
        }
    ],
    "system": [
        {
            "name": "export",
            "definition": "http://hl7.org/fhir/uv/bulkdata/OperationDefinition/export",
        }
    ],
}


def statement(base: str) -> dict[str, Any]:
    resources = []
    for resource_type, spec in RESOURCES.items():
        resource: dict[str, Any] = {
            "type": resource_type,
            "documentation": spec["documentation"],
            "interaction": [{"code": code} for code in spec["interactions"]],
            "versioning": spec["versioning"],
            "readHistory": "vread" in spec["interactions"],
            "updateCreate": False,
            "conditionalCreate": spec.get("conditionalCreate", False),
            "conditionalUpdate": False,
            "conditionalDelete": "not-supported",
            "searchParam": [
                {"name": name, "type": kind}
                for name, kind in {**spec["search"], **COMMON_SEARCH}.items()
            ],
        }
        if resource_type in OPERATIONS:
            resource["operation"] = OPERATIONS[resource_type]
        resources.append(resource)
    return {
        "resourceType": "CapabilityStatement",
        "status": "active",
        "date": "2026-11-27",
        "publisher": "CareVault",
        "kind": "instance",
        "software": {"name": "CareVault", "version": carevault.__version__},
        "implementation": {"description": "CareVault FHIR R4", "url": base},
        "fhirVersion": mapping.FHIR_VERSION,
        "format": ["json"],
        "rest": [
            {
                "mode": "server",
                "documentation": "Errors are OperationOutcome; issue.details.coding carries "
                "the REST API's error code. Unsupported parameters answer 400.",
                "security": {
                    "service": [
                        {
                            "coding": [
                                {
                                    "system": "http://terminology.hl7.org/CodeSystem/restful-security-service",
                                    "code": "SMART-on-FHIR",
                                }
                            ]
                        }
                    ],
                    "description": "Bearer API tokens with CareVault or SMART v2 scopes "
                    "(see .well-known/smart-configuration); PHI only with the resource's read "
                    "scope; every disclosure is audited.",
                },
                "resource": resources,
                "operation": OPERATIONS["system"],
            }
        ],
    }


def smart_scopes() -> list[str]:
    """Every SMART scope CareVault grants, in its v2 form (`.cruds` and narrower ones too)."""
    types = ["*", *SMART_RESOURCES]
    return [
        f"{context}/{resource_type}.{p}"
        for context in SMART_CONTEXTS
        for resource_type in types
        for p in ("rs", "cruds")
    ]


def smart_configuration(base: str) -> dict[str, Any]:
    del base
    return {
        # No OAuth endpoints yet: tokens are created in CareVault (the web UI or POST
        # /api/v1/auth/tokens) with SMART scopes. docs/reference/fhir.md says how the flows
        # will fit.
        "grant_types_supported": [],
        "token_endpoint_auth_methods_supported": [],
        "scopes_supported": smart_scopes(),
        "response_types_supported": [],
        "capabilities": ["permission-v2", "permission-user"],
        "code_challenge_methods_supported": [],
        # Who holds which: user/ scopes on a person's API token (POST /api/v1/auth/tokens),
        # system/ scopes on a service account's (POST /api/v1/service-accounts).
        "scopes_supported_by_credential": {
            "user": "personal API tokens: POST /api/v1/auth/tokens",
            "system": "service account tokens: POST /api/v1/service-accounts",
        },
    }
