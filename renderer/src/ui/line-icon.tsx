/**
 * A small line icon drawn inline (the CSP allows no remote images, and inline SVG takes the text
 * colour): the device classes' icons and the controls' (favourite star, dismiss). Decorative: the
 * button or card it sits in carries the name.
 */
import type { ReactNode } from 'react';

export function LineIcon({ className, size = 24, filled = false, children }: { className?: string; size?: number; filled?: boolean; children: ReactNode }) {
  return (
    <svg
      className={className}
      viewBox="0 0 24 24"
      width={size}
      height={size}
      fill={filled ? 'currentColor' : 'none'}
      stroke="currentColor"
      strokeWidth="1.6"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

/** The favourite star: outlined, or filled when the device is pinned. */
export function StarIcon({ filled }: { filled: boolean }) {
  return (
    <LineIcon size={18} filled={filled}>
      <path d="M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8-5.2-2.7-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z" />
    </LineIcon>
  );
}

/** A cross: dismiss or close. */
export function CrossIcon() {
  return (
    <LineIcon size={16}>
      <path d="M6 6l12 12M18 6L6 18" />
    </LineIcon>
  );
}
