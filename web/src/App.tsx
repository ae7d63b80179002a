// Signed out: the sign-in form. Signed in: the shell and the page the route names,
// and the question a sign-in link for another operator asks.
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect } from 'react';
import { Route, Switch } from 'wouter';
import { SignIn } from './auth/SignIn';
import { SwitchOperator } from './auth/SwitchOperator';
import { useToken, watchAddressForTokens } from './auth/token';
import { Shell } from './layout/Shell';
import { AuditPage } from './pages/AuditPage';
import { DocumentsPage } from './pages/DocumentsPage';
import { EnvironmentPage } from './pages/EnvironmentPage';
import { MembersPage } from './pages/MembersPage';
import { NotFound } from './pages/NotFound';
import { ProjectPage } from './pages/ProjectPage';
import { ProjectsPage } from './pages/ProjectsPage';

// The editor (CodeMirror) loads only on its own route.
const EditorPage = lazy(() => import('./editor/EditorPage'));

export function App() {
  const token = useToken();
  const queries = useQueryClient();
  useEffect(() => {
    if (!token) queries.clear();
  }, [token, queries]);
  // A sign-in link pasted into this open tab changes only the fragment: no reload, so it is read here.
  useEffect(() => watchAddressForTokens(), []);
  if (!token) return <SignIn />;
  return (
    <Shell>
      <SwitchOperator />
      <Suspense fallback={<p className="loading">Loading…</p>}>
        <Switch>
          <Route path="/" component={ProjectsPage} />
          <Route path="/projects/:project" component={ProjectPage} />
          <Route path="/projects/:project/documents" component={DocumentsPage} />
          <Route path="/projects/:project/documents/*">{(params) => <EditorPage project={params.project} path={params['*']} />}</Route>
          <Route path="/projects/:project/environments/:environment" component={EnvironmentPage} />
          <Route path="/projects/:project/members" component={MembersPage} />
          <Route path="/projects/:project/audit" component={AuditPage} />
          <Route component={NotFound} />
        </Switch>
      </Suspense>
    </Shell>
  );
}
