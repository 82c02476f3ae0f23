/** Date-range filters typed as datetime-local values (local time), as the API wants them. */

/** datetime-local ("2026-11-23T10:00") in local time → ISO with offset for the API. */
export function localToIso(local: string): string | undefined {
  if (!local) return undefined;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** The message for a range whose start is after its end (the server refuses it with 422
 * `invalid_date_range`), or null when the range is fine or open at either end. */
export function dateRangeError(since: string, until: string): string | null {
  const from = localToIso(since);
  const to = localToIso(until);
  if (!from || !to) return null;
  return Date.parse(from) > Date.parse(to) ? '“From” must be before “Until”.' : null;
}
