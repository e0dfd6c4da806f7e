import { useId, useState, type FormEvent } from 'react';
import { version } from '../../../../package.json';
import { BUTTON } from '../../../../web/src/features/accounts/button-styles';
import { useDesktopPlatform } from '../app/use-desktop-platform';

const SAVE_FAILED = 'The server address could not be saved. Please try again.';

/** The server this app talks to (changing it signs out and starts the app over), and the app's version. */
export function SettingsPage() {
  const id = useId();
  const desktop = useDesktopPlatform();
  const [address, setAddress] = useState(desktop.serverUrl);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const unchanged = address.trim() === desktop.serverUrl;

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setBusy(true);
    const result = await desktop.setServerUrl(address.trim()).catch(() => ({ ok: false as const, message: SAVE_FAILED }));
    if (!result.ok) {
      setError(result.message);
      setBusy(false);
      return;
    }
    // Another server: another session, brand and settings. Start over on its sign-in screen.
    window.location.hash = '/login';
    window.location.reload();
  }

  return (
    <div className="mx-auto max-w-2xl px-4 py-8 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Settings</h1>

      <section aria-labelledby={`${id}-server`} className="mt-8 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id={`${id}-server`} className="text-lg font-semibold text-slate-900">
          Server
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          This app talks to <span className="font-mono break-all text-slate-900">{desktop.serverUrl}</span>. Changing it
          signs you out.
        </p>
        {error && (
          <div role="alert" className="mt-4 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
            {error}
          </div>
        )}
        <form onSubmit={(event) => void save(event)} className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end">
          <div className="min-w-0 flex-1">
            <label htmlFor={`${id}-address`} className="block text-sm font-medium text-slate-700">
              Server address
            </label>
            <input
              id={`${id}-address`}
              name="serverUrl"
              type="url"
              required
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              placeholder="https://vpn.example.com"
              value={address}
              onChange={(event) => setAddress(event.target.value)}
              readOnly={busy}
              className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3.5 py-2.5 font-mono text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/40 focus:outline-none"
            />
          </div>
          <button type="submit" disabled={busy || unchanged} className={`${BUTTON.primary} py-2.5`}>
            {busy ? 'Saving...' : 'Save'}
          </button>
        </form>
      </section>

      <p className="mt-6 text-sm text-slate-500">App version {version}</p>
    </div>
  );
}
