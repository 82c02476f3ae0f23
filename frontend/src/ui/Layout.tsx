import { useState, type ReactNode } from 'react';
import { NavLink, useLocation } from 'react-router';
import { useSignedIn } from '../auth/AuthProvider';
import {
  ConfirmPasswordBanner,
  IdleWarning,
  SessionExpiryNotice,
  SessionLock,
  useSignOutSafely,
} from '../auth/SessionDialogs';
import { routes } from '../routes';
import { WebhookFailureNotice } from '../webhooks/WebhookFailureNotice';

export function Layout({ children }: { children: ReactNode }) {
  const { user, workspace } = useSignedIn();
  const signOut = useSignOutSafely();
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();
  const [menuPath, setMenuPath] = useState(location.pathname);
  if (menuPath !== location.pathname) {
    setMenuPath(location.pathname);
    setMenuOpen(false);
  }
  const owner = user.role === 'owner';
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <div className="topbar-brand">
          <span className="brand">CareVault</span>
          <span className="workspace">{workspace.name}</span>
        </div>
        <button
          type="button"
          className="button menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="main-nav"
          onClick={() => setMenuOpen((open) => !open)}
        >
          Menu
        </button>
        <nav id="main-nav" aria-label="Main" className={`nav${menuOpen ? ' nav-open' : ''}`}>
          <ul>
            <li>
              <NavLink to={routes.calendar()}>Calendar</NavLink>
            </li>
            <li>
              <NavLink to={routes.clients()}>Clients</NavLink>
            </li>
            <li>
              <NavLink to={routes.worklist()} end>
                Notes to finish
              </NavLink>
            </li>
            <li>
              <NavLink to={routes.tokens()}>API tokens</NavLink>
            </li>
            <li>
              <NavLink to={routes.account()}>Your account</NavLink>
            </li>
            {owner && (
              <>
                <li>
                  <NavLink to={routes.audit()}>Audit log</NavLink>
                </li>
                <li>
                  <NavLink to={routes.team()}>Team</NavLink>
                </li>
                <li>
                  <NavLink to={routes.practice()}>Practice settings</NavLink>
                </li>
                <li>
                  <NavLink to={routes.webhooks()}>Webhooks</NavLink>
                </li>
                <li>
                  <NavLink to={routes.keys()}>Key status</NavLink>
                </li>
              </>
            )}
          </ul>
          <div className="nav-user">
            <span className="muted" title={user.email}>
              {user.display_name || user.email}
            </span>
            <button type="button" className="button" onClick={signOut.start}>
              Sign out
            </button>
          </div>
        </nav>
      </header>
      <ConfirmPasswordBanner />
      <SessionExpiryNotice />
      <WebhookFailureNotice owner={owner} />
      <main id="main" className="content" tabIndex={-1}>
        {children}
      </main>
      <IdleWarning />
      <SessionLock />
      {signOut.dialog}
    </div>
  );
}

export function OwnerOnly({ children }: { children: ReactNode }) {
  const { user } = useSignedIn();
  if (user.role !== 'owner') {
    return (
      <div className="state state-error" role="alert">
        <p className="state-title">Only practice owners can see this page</p>
      </div>
    );
  }
  return <>{children}</>;
}
