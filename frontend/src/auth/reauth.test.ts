import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/errors';
import { describeScopes } from '../admin/scopes';
import { ReauthCancelled, newPasswordProblem, withRecentPassword } from './reauth';

const reauthRequired = () => new ApiError(403, 'reauthentication_required', 'enter your password again');

describe('changes that need the password again', () => {
  it('run once when the password is recent enough, without asking', async () => {
    const ask = vi.fn(() => Promise.resolve());
    await expect(withRecentPassword(() => Promise.resolve('done'), ask)).resolves.toBe('done');
    expect(ask).not.toHaveBeenCalled();
  });

  it('ask for the password, then repeat the change once', async () => {
    const change = vi.fn<() => Promise<string>>().mockRejectedValueOnce(reauthRequired()).mockResolvedValueOnce('done');
    const ask = vi.fn(() => Promise.resolve());
    await expect(withRecentPassword(change, ask)).resolves.toBe('done');
    expect(ask).toHaveBeenCalledTimes(1);
    expect(change).toHaveBeenCalledTimes(2);
  });

  it('are not made when the prompt is cancelled', async () => {
    const change = vi.fn<() => Promise<string>>().mockRejectedValue(reauthRequired());
    const ask = vi.fn(() => Promise.reject(new ReauthCancelled()));
    await expect(withRecentPassword(change, ask)).rejects.toBeInstanceOf(ReauthCancelled);
    expect(change).toHaveBeenCalledTimes(1);
  });

  it('pass other failures through without asking', async () => {
    const ask = vi.fn(() => Promise.resolve());
    const refused = new ApiError(403, 'owner_required', 'only workspace owners can do this');
    await expect(withRecentPassword(() => Promise.reject(refused), ask)).rejects.toBe(refused);
    expect(ask).not.toHaveBeenCalled();
  });
});

describe('a new password', () => {
  it('is long enough, new, and typed the same twice', () => {
    expect(newPasswordProblem('old password', 'short', 'short')).toMatch(/at least 10/);
    expect(newPasswordProblem('same old password', 'same old password', 'same old password')).toMatch(/differ/);
    expect(newPasswordProblem('old password', 'a new passphrase', 'a new passphrase!')).toMatch(/do not match/);
    expect(newPasswordProblem('old password', 'a new passphrase', 'a new passphrase')).toBeNull();
  });
});

describe('token scopes', () => {
  it('read as a sentence, in a fixed order, unknown ones kept', () => {
    expect(describeScopes(['appointments:read', 'clients:read'])).toBe('Read clients, read appointments');
    expect(describeScopes(['future:thing'])).toBe('future:thing');
    expect(describeScopes([])).toBe('Nothing');
  });
});
