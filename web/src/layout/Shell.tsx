// The frame of every signed-in page: the top bar (project, environment,
// role, what waits, who), the project navigation, the page, and the assistant
// panel — a column that collapses and resizes, or below 900 px a drawer over
// the page (layout/useDrawer). The page's project is followed as it changes.
// A panel that fails says so in its place; the page goes on working.
import type { CSSProperties, ReactNode } from 'react';
import { useProjectChangeStream } from '../api/projectChanges';
import { AssistantPanel } from '../assistant/AssistantPanel';
import { useScope } from '../scope';
import { ErrorBoundary } from '../ui/ErrorBoundary';
import { ConnectionBanner } from './ConnectionBanner';
import { Nav } from './Nav';
import { PanelResizer } from './PanelResizer';
import { setPanelOpen, useNarrowScreen, usePanelLayout, usePanelOpen } from './panelLayout';
import { TopBar } from './TopBar';
import { focusPage, PAGE_ID, usePageFocus } from './usePageFocus';
import { PANEL_ID, useDrawer } from './useDrawer';

export function Shell({ children }: { children: ReactNode }) {
  const scope = useScope();
  useProjectChangeStream(scope.project);
  const { width } = usePanelLayout();
  const narrow = useNarrowScreen();
  const open = usePanelOpen();
  const drawerOpen = narrow && open;

  useDrawer(drawerOpen);
  usePageFocus();

  const classes = ['shell', scope.project ? '' : 'no-nav', open ? '' : 'panel-hidden'].filter(Boolean).join(' ');
  return (
    <div className={classes} style={{ '--assistant-width': `${width}px` } as CSSProperties}>
      {/* Out of reach (keyboard and screen reader) while the drawer covers it; its own box stays out of the grid. */}
      <div className="behind-drawer" inert={drawerOpen}>
        <a
          href={`#${PAGE_ID}`}
          className="skip-link"
          onClick={(event) => {
            event.preventDefault();
            focusPage();
          }}
        >
          Skip to content
        </a>
        {scope.project && (
          <a
            href="#project-nav"
            className="skip-link"
            onClick={(event) => {
              event.preventDefault();
              document.querySelector<HTMLElement>('#project-nav a[aria-current=page], #project-nav a')?.focus();
            }}
          >
            Skip to the project’s pages
          </a>
        )}
        <TopBar scope={scope} panelOpen={open} />
        <ConnectionBanner />
        {scope.project && <Nav project={scope.project} environment={scope.environment} />}
        <main className="page" id={PAGE_ID}>
          {children}
        </main>
      </div>
      {drawerOpen && <div className="drawer-backdrop" aria-hidden="true" onClick={() => setPanelOpen(false)} />}
      <ErrorBoundary
        what="The assistant"
        frame={(sentence) => (
          <aside className="assistant-panel" id={PANEL_ID} role="region" aria-label="Assistant" hidden={!open}>
            {sentence}
          </aside>
        )}
      >
        <AssistantPanel scope={scope} hidden={!open} onHide={() => setPanelOpen(false)} resizer={open && !narrow ? <PanelResizer /> : null} />
      </ErrorBoundary>
    </div>
  );
}
