/** The nearest ancestor that scrolls (`overflow` auto or scroll): the content region, or the page's root signed out. */
export function scrollParent(element: HTMLElement | null): HTMLElement | null {
  for (let parent = element?.parentElement; parent; parent = parent.parentElement) {
    if (/auto|scroll/.test(getComputedStyle(parent).overflowY)) return parent;
  }
  return null;
}

/**
 * Scrolls that one ancestor so `element`'s top is at its top. Not `scrollIntoView`, which scrolls every
 * ancestor, the shell's `overflow: hidden` boxes too, and would slide the header out of the window.
 */
export function scrollToTop(element: HTMLElement): void {
  const region = scrollParent(element);
  if (region) region.scrollTop += element.getBoundingClientRect().top - region.getBoundingClientRect().top;
}
