"""FHIR R4 (4.0.1): a face over CareVault's own services, owning no rules.

`mapping` turns CareVault records into FHIR resources (and FHIR bodies into the REST
schemas), `router` serves them under /fhir/R4 through the same services, permissions and
audit as /api/v1; `capability` describes what is registered, `smart` maps SMART v2 scopes
onto CareVault's.
"""
