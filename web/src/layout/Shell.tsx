// The frame of every signed-in page: the top bar (project, environment,
// role, who), the project navigation, the page, and the assistant panel.
import type { ReactNode } from 'react';
import { AssistantPanel } from '../assistant/AssistantPanel';
import { useScope } from '../scope';
import { Nav } from './Nav';
import { TopBar } from './TopBar';

export function Shell({ children }: { children: ReactNode }) {
  const scope = useScope();
  return (
    <div className={scope.project ? 'shell' : 'shell no-nav'}>
      <TopBar scope={scope} />
      {scope.project && <Nav project={scope.project} environment={scope.environment} />}
      <main className="page" id="page">
        {children}
      </main>
      <AssistantPanel scope={scope} />
    </div>
  );
}
