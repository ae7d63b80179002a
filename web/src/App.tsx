// Signed out: the sign-in form. Signed in: the shell and the page the route names
// (one that fails says so in its place: ui/ErrorBoundary), the question a
// sign-in link for another operator asks, and the tab's streams of thread and
// change-request changes.
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect } from 'react';
import { Route, Switch, useLocation } from 'wouter';
import { threadChanges } from './assistant/threadChanges';
import { SignIn } from './auth/SignIn';
import { SwitchOperator } from './auth/SwitchOperator';
import { changeRequestChanges } from './change-requests/stream';
import { useChangeStream } from './api/changeStream';
import { LazyEditorPage as EditorPage } from './editor/LazyEditorPage';
import { useToken, watchAddressForTokens } from './auth/token';
import { HISTORY_ROUTE } from '../../src/wire/console-routes';
import { Shell } from './layout/Shell';
import { AuditPage } from './pages/AuditPage';
import { DocumentsPage } from './pages/DocumentsPage';
import { EnvironmentPage } from './pages/EnvironmentPage';
import { MembersPage } from './pages/MembersPage';
import { WebhooksPage } from './webhooks/WebhooksPage';
import { NotFound } from './pages/NotFound';
import { ProjectPage } from './pages/ProjectPage';
import { ProjectsPage } from './pages/ProjectsPage';
import { ErrorBoundary } from './ui/ErrorBoundary';
import { LiveUpdatesPaused } from './ui/LiveUpdatesPaused';

// The editor (CodeMirror) loads only on its own route (when the tab starts there, at once: editor/route),
// without suspending (editor/LazyEditorPage).
const HistoryPage = lazy(() => import('./history/HistoryPage'));
const ChangeRequestsPage = lazy(() => import('./change-requests/ChangeRequestsPage'));
const ChangeRequestPage = lazy(() => import('./change-requests/ChangeRequestPage'));

/** What the tab's one change stream keeps current. */
const FOLLOWERS = [threadChanges, changeRequestChanges];

export function App() {
  const token = useToken();
  const queries = useQueryClient();
  const [location] = useLocation();
  useEffect(() => {
    if (!token) queries.clear();
  }, [token, queries]);
  // A sign-in link pasted into this open tab changes only the fragment: no reload, so it is read here.
  useEffect(() => watchAddressForTokens(), []);
  useChangeStream(token, FOLLOWERS);
  if (!token) return <SignIn />;
  return (
    <Shell>
      <SwitchOperator />
      <LiveUpdatesPaused />
      <ErrorBoundary what="This page" resetOn={location}>
        <Suspense fallback={<p className="loading">Loading…</p>}>
          <Switch>
            <Route path="/" component={ProjectsPage} />
            <Route path="/projects/:project" component={ProjectPage} />
            <Route path="/projects/:project/documents" component={DocumentsPage} />
            <Route path={HISTORY_ROUTE}>{(params) => <HistoryPage project={decodeURIComponent(params.project ?? '')} path={decodeURIComponent(params.path ?? '')} />}</Route>
            <Route path="/projects/:project/documents/*">{(params) => <EditorPage project={params.project} path={params['*']} />}</Route>
            <Route path="/projects/:project/environments/:environment" component={EnvironmentPage} />
            <Route path="/projects/:project/members" component={MembersPage} />
            <Route path="/projects/:project/audit" component={AuditPage} />
            <Route path="/projects/:project/webhooks" component={WebhooksPage} />
            <Route path="/change-requests">{() => <ChangeRequestsPage />}</Route>
            <Route path="/projects/:project/change-requests">{(params) => <ChangeRequestsPage project={decodeURIComponent(params.project)} />}</Route>
            <Route path="/projects/:project/change-requests/:id">
              {(params) => <ChangeRequestPage project={decodeURIComponent(params.project)} id={decodeURIComponent(params.id)} />}
            </Route>
            <Route component={NotFound} />
          </Switch>
        </Suspense>
      </ErrorBoundary>
    </Shell>
  );
}
