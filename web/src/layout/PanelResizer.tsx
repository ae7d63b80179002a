// The handle between the page and the assistant panel: drag it, or focus it
// and use the arrow keys (Home and End for the narrowest and widest).
import type { KeyboardEvent, PointerEvent } from 'react';
import { PANEL_WIDTH, setPanelWidth, usePanelLayout } from './panelLayout';
import { PANEL_ID } from './useDrawer';

const STEP = 16;

export function PanelResizer() {
  const { width } = usePanelLayout();

  function onKeyDown(event: KeyboardEvent) {
    // The panel is on the right: moving the handle left widens it.
    const next: Record<string, number> = {
      ArrowLeft: width + STEP,
      ArrowRight: width - STEP,
      Home: PANEL_WIDTH.min,
      End: PANEL_WIDTH.max,
    };
    if (next[event.key] === undefined) return;
    event.preventDefault();
    setPanelWidth(next[event.key] ?? width);
  }

  function onPointerDown(event: PointerEvent<HTMLDivElement>) {
    const handle = event.currentTarget;
    handle.setPointerCapture(event.pointerId);
    const startX = event.clientX;
    const move = (e: globalThis.PointerEvent) => setPanelWidth(width + startX - e.clientX);
    const end = () => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', end);
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', end);
  }

  return (
    <div
      className="panel-resizer"
      role="separator"
      tabIndex={0}
      aria-label="Resize assistant"
      aria-controls={PANEL_ID}
      aria-orientation="vertical"
      aria-valuemin={PANEL_WIDTH.min}
      aria-valuemax={PANEL_WIDTH.max}
      aria-valuenow={width}
      title="Drag, or use the arrow keys, to resize the assistant"
      onKeyDown={onKeyDown}
      onPointerDown={onPointerDown}
    />
  );
}
