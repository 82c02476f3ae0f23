/** Small shared pieces: loading, empty and error states, banners, dialogs, form fields. */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { describeError } from '../api/errors';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="state state-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {label}
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state state-empty">
      <p className="state-title">{title}</p>
      {children}
    </div>
  );
}

export function ErrorState({
  error,
  onRetry,
  title = 'This could not be loaded',
}: {
  error: unknown;
  onRetry?: () => void;
  title?: string;
}) {
  return (
    <div className="state state-error" role="alert">
      <p className="state-title">{title}</p>
      <p>{describeError(error)}</p>
      {onRetry && (
        <button type="button" className="button" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Banner({
  tone,
  title,
  children,
  role,
}: {
  tone: 'info' | 'warning' | 'danger' | 'success';
  title?: string;
  children?: ReactNode;
  role?: 'alert' | 'status';
}) {
  return (
    <div
      className={`banner banner-${tone}`}
      role={role ?? (tone === 'danger' || tone === 'warning' ? 'alert' : 'status')}
    >
      {title && <p className="banner-title">{title}</p>}
      {children}
    </div>
  );
}

/** A secret shown this once (a new token, a webhook's signing secret): the field to copy it
 * from, a copy button, and the explicit "I have stored it" that hides it. */
export function ShownOnce({
  title,
  label,
  value,
  copyLabel,
  children,
  onStored,
}: {
  title: string;
  label: string;
  value: string;
  copyLabel: string;
  /** What to do with it, and why it will not be shown again. */
  children: ReactNode;
  onStored: () => void;
}) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  return (
    <Banner tone="success" title={title}>
      <p>{children}</p>
      <div className="token-reveal">
        <label htmlFor={id}>{label}</label>
        <input id={id} readOnly value={value} onFocus={(event) => event.target.select()} />
        <button
          type="button"
          className="button"
          onClick={() =>
            void navigator.clipboard?.writeText(value).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? 'Copied' : copyLabel}
        </button>
        <button type="button" className="button" onClick={onStored}>
          I have stored it
        </button>
      </div>
    </Banner>
  );
}

/** A modal on the native <dialog>: focus stays inside, Escape closes. */
export function Dialog({
  title,
  open,
  onClose,
  children,
  role = 'dialog',
  wide = false,
  lock = false,
}: {
  title: string;
  open: boolean;
  onClose: () => void;
  children: ReactNode;
  role?: 'dialog' | 'alertdialog';
  wide?: boolean;
  /** Hides the page behind it completely and cannot be closed (the session lock). */
  lock?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className={`dialog${wide ? ' dialog-wide' : ''}${lock ? ' dialog-lock' : ''}`}
      role={role}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      {open && (
        <>
          <div className="dialog-header">
            <h2 id={titleId}>{title}</h2>
            {!lock && (
              <button type="button" className="button-icon" aria-label="Close" onClick={onClose}>
                ×
              </button>
            )}
          </div>
          <div className="dialog-body">{children}</div>
        </>
      )}
    </dialog>
  );
}

export function Field({
  label,
  hint,
  error,
  children,
  id,
}: {
  label: string;
  hint?: string;
  error?: string;
  id: string;
  children: ReactNode;
}) {
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

export function Pagination({
  page,
  pageSize,
  total,
  onPage,
  label,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
  label: string;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  return (
    <nav className="pagination" aria-label={label}>
      <button type="button" className="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous page
      </button>
      <span>
        Page {page} of {pages}
      </span>
      <button type="button" className="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next page
      </button>
    </nav>
  );
}

export function StatusBadge({ status }: { status: string }) {
  const labels: Record<string, string> = {
    draft: 'Draft',
    finalized: 'Finalized',
    scheduled: 'Scheduled',
    attended: 'Attended',
    cancelled: 'Cancelled',
    'no-show': 'No-show',
  };
  return <span className={`badge badge-${status}`}>{labels[status] ?? status}</span>;
}
