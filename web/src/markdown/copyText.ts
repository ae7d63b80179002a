// Puts text on the clipboard: the Clipboard API where the page is a secure
// context, else the copy command on a hidden selection (a console served over
// plain HTTP on a LAN address has no Clipboard API). Focus comes back after.
export async function copyText(text: string): Promise<void> {
  if (window.isSecureContext && navigator.clipboard) return navigator.clipboard.writeText(text);
  const focused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const area = document.createElement('textarea');
  area.value = text;
  area.readOnly = true;
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  try {
    if (!document.execCommand('copy')) throw new Error('the browser would not copy');
  } finally {
    area.remove();
    focused?.focus();
  }
}
