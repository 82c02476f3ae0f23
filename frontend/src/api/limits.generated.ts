// Generated from the backend OpenAPI document by scripts/generate-api.mjs. Do not edit:
// run `npm run generate:api` after changing the API.

import type { components } from './schema';

type Schemas = components['schemas'];

/** The `maxLength` of every string property of the API's schemas, by schema and property
 * (characters, as the server counts them: Unicode code points). */
export const maxLength = {
  AppointmentCreate: { external_id: 255, location: 500, notes: 5000, room: 100 },
  AppointmentRead: { location: 500, notes: 5000, room: 100 },
  AppointmentSeriesCreate: { external_id: 255, location: 500, notes: 5000, room: 100 },
  AppointmentUpdate: { external_id: 255, location: 500, notes: 5000, room: 100 },
  AppointmentUpsert: { location: 500, notes: 5000, room: 100 },
  BreakTheGlass: { reason: 500 },
  ClientCreate: { address: 500, email: 320, emergency_contact_name: 500, emergency_contact_phone: 50, external_id: 255, first_name: 200, last_name: 200, medical_history: 5000, notes: 5000, phone: 50 },
  ClientRead: { address: 500, email: 320, emergency_contact_name: 500, emergency_contact_phone: 50, medical_history: 5000, notes: 5000, phone: 50 },
  ClientSearch: { q: 320 },
  ClientUpdate: { address: 500, email: 320, emergency_contact_name: 500, emergency_contact_phone: 50, external_id: 255, first_name: 200, last_name: 200, medical_history: 5000, notes: 5000, phone: 50 },
  ClientUpsert: { address: 500, email: 320, emergency_contact_name: 500, emergency_contact_phone: 50, first_name: 200, last_name: 200, medical_history: 5000, notes: 5000, phone: 50 },
  LoginRequest: { email: 320, password: 1024 },
  PasswordChange: { current_password: 1024, new_password: 1024 },
  PracticeKeyUpdate: { kms_key_id: 2048 },
  ReauthRequest: { password: 1024 },
  ServiceAccountCreate: { name: 200 },
  ServiceAccountTokenCreate: { name: 200 },
  SessionNoteCreate: { assessment: 5000, external_id: 255, objective: 5000, plan: 5000, subjective: 5000 },
  SessionNoteRead: { assessment: 5000, objective: 5000, plan: 5000, subjective: 5000 },
  SessionNoteUpdate: { assessment: 5000, external_id: 255, objective: 5000, plan: 5000, reason: 1000, subjective: 5000 },
  SessionNoteVersionRead: { assessment: 5000, objective: 5000, plan: 5000, subjective: 5000 },
  TemporaryPassword: { temporary_password: 1024 },
  TokenCreate: { name: 200 },
  UserCreate: { display_name: 200, email: 320, password: 1024 },
  WebhookCreate: { description: 500, url: 2048 },
  WebhookUpdate: { description: 500, url: 2048 },
  WorkspaceUpdate: { phone_region: 2, time_zone: 64 },
} as const satisfies { [S in keyof Schemas]?: { [P in keyof Schemas[S]]?: number } };
