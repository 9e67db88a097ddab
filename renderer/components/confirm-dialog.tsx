import { useEffect, useRef, type ReactNode } from 'react';

interface Props {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  /** The confirm button waits (an irreversible step asks for something typed first). */
  confirmDisabled?: boolean;
  /** The confirm button's look: `danger` (the default) for what removes, `primary` for what only sets. */
  tone?: 'danger' | 'primary';
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * Where focus goes when a dialog goes away: back to what opened it, or, when that is gone (the row it
 * acted on was removed), to the page's heading, never to <body>.
 */
function refocus(opener: HTMLElement | null): void {
  const target = opener?.isConnected ? opener : document.querySelector<HTMLElement>('main h1');
  target?.focus();
  if (target === opener) headingWhenRemoved(opener);
}

/** How long an opener focus went back to is watched for its removal. */
const removalWatchMs = 10_000;

/**
 * Focus went back to the opener, whose row the action removes once the page has read the change
 * (later than the dialog closes, and later still on a busy machine): left on it, focus falls to
 * <body> when it goes. Then it goes to the page's heading, unless focus has moved on meanwhile.
 */
function headingWhenRemoved(opener: HTMLElement | null): void {
  if (!opener) return;
  const watch = new MutationObserver(() => {
    if (opener.isConnected) return;
    watch.disconnect();
    const now = document.activeElement;
    if (!now || now === document.body) document.querySelector<HTMLElement>('main h1')?.focus();
  });
  watch.observe(document.body, { childList: true, subtree: true });
  setTimeout(() => watch.disconnect(), removalWatchMs);
}

/**
 * A modal confirmation on the native <dialog>: the browser traps focus, Escape cancels, and focus
 * returns to the opener. The safe choice (Cancel) has focus first. Callers usually unmount the dialog
 * when it closes, before the browser could restore focus itself, so it is restored here.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  busy,
  confirmDisabled,
  tone = 'danger',
  onConfirm,
  onCancel,
}: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      d.showModal();
      cancelRef.current?.focus();
    } else if (!open && d.open) {
      d.close();
      refocus(opener.current);
      opener.current = null;
    }
  }, [open]);
  useEffect(
    () => () => {
      // Unmounted while open: the opener may be removed in the same render, so wait for it to settle.
      if (opener.current) {
        const o = opener.current;
        setTimeout(() => {
          // Unless the page has put focus somewhere on purpose meanwhile (a confirmation to read).
          const now = document.activeElement;
          if (!now || now === document.body || !now.isConnected) refocus(o);
        }, 0);
      }
    },
    [],
  );
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby="confirm-title"
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      <h2 id="confirm-title">{title}</h2>
      <div className="dialog-body">{children}</div>
      <div className="dialog-actions">
        <button type="button" ref={cancelRef} onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className={tone} onClick={onConfirm} disabled={busy || confirmDisabled}>
          {busy ? 'Working…' : confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
