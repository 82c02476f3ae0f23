import { Navigate, Route, Routes } from 'react-router';
import { AccountPage } from './account/AccountPage';
import { ForcedPasswordChange } from './account/ForcedPasswordChange';
import { AuditPage } from './admin/AuditPage';
import { KeyStatusPage } from './admin/KeyStatusPage';
import { TeamPage } from './admin/TeamPage';
import { TokensPage } from './admin/TokensPage';
import { useAuth } from './auth/AuthProvider';
import { ReauthProvider } from './auth/ReauthProvider';
import { SignInPage } from './auth/SignInPage';
import { CalendarPage } from './calendar/CalendarPage';
import { ClientPage } from './clients/ClientPage';
import { ClientsPage } from './clients/ClientsPage';
import { NewNotePage, NoteEditorPage } from './notes/NoteEditorPage';
import { WorklistPage } from './notes/WorklistPage';
import { PracticeSettingsPage } from './practice/PracticeSettingsPage';
import { WebhooksPage } from './webhooks/WebhooksPage';
import { ErrorState, Loading } from './ui/components';
import { Layout, OwnerOnly } from './ui/Layout';
import { paths, routes } from './routes';

export function App() {
  const { state, retry } = useAuth();
  if (state.status === 'checking') {
    return (
      <main className="signin" id="main">
        <Loading label="Opening CareVault…" />
      </main>
    );
  }
  if (state.status === 'unreachable') {
    return (
      <main className="signin" id="main">
        <ErrorState error={state.error} title="CareVault could not be reached" onRetry={retry} />
      </main>
    );
  }
  if (state.status === 'signed-out') return <SignInPage reason={state.reason} />;
  if (state.user.must_change_password) return <ForcedPasswordChange />;
  return (
    <ReauthProvider>
      <Layout>
        <Routes>
          <Route path={paths.home} element={<Navigate to={routes.calendar()} replace />} />
          <Route path={paths.calendar} element={<CalendarPage />} />
          <Route path={paths.clients} element={<ClientsPage />} />
          <Route path={paths.client} element={<ClientPage />} />
          <Route path={paths.worklist} element={<WorklistPage />} />
          <Route path={paths.note} element={<NoteEditorPage />} />
          <Route path={paths.newNote} element={<NewNotePage />} />
          <Route path={paths.tokens} element={<TokensPage />} />
          <Route path={paths.account} element={<AccountPage />} />
          <Route
            path={paths.audit}
            element={
              <OwnerOnly>
                <AuditPage />
              </OwnerOnly>
            }
          />
          <Route
            path={paths.team}
            element={
              <OwnerOnly>
                <TeamPage />
              </OwnerOnly>
            }
          />
          <Route
            path={paths.keys}
            element={
              <OwnerOnly>
                <KeyStatusPage />
              </OwnerOnly>
            }
          />
          <Route
            path={paths.practice}
            element={
              <OwnerOnly>
                <PracticeSettingsPage />
              </OwnerOnly>
            }
          />
          <Route
            path={paths.webhooks}
            element={
              <OwnerOnly>
                <WebhooksPage />
              </OwnerOnly>
            }
          />
          <Route
            path="*"
            element={<ErrorState error={new Error('There is no page at this address.')} title="Page not found" />}
          />
        </Routes>
      </Layout>
    </ReauthProvider>
  );
}
