/**
 * A zone off screen skips its layout (`content-visibility: auto`, signed-in-screen.css) and stands in at
 * its placeholder height until it is first shown, so zones used to move as they came into view. Once
 * the grid is drawn, each zone is laid out once in idle time, CARDS_PER_STEP of its cards a frame and
 * then the zone alone: their sizes are then remembered as their real ones (`contain-intrinsic-size:
 * auto`) and nothing moves on scrolling (docs/device-controls.md, "Zones keep their place").
 *
 * `drawn`: the grid's groups once all are drawn, null while it fills; the zones of new groups are laid
 * out in their turn. Returns the ref callback each zone's element takes.
 */
import { useCallback, useEffect, useRef } from 'react';

/** Cards laid out ahead in one frame: as many as a frame of the grid's first fill draws (devices-panel.tsx). */
const CARDS_PER_STEP = 20;

export function useZonesLaidOutAhead(drawn: object | null): (zone: HTMLElement | null) => () => void {
  const zones = useRef(new Set<HTMLElement>());
  const track = useCallback((zone: HTMLElement | null) => {
    if (zone) zones.current.add(zone);
    return () => {
      if (zone) zones.current.delete(zone);
    };
  }, []);

  useEffect(() => {
    if (!drawn) return;
    let idle = 0;
    let frame = 0;
    let step: HTMLElement[] = [];
    const next = () => {
      // A zone is laid out again once its cards are not those it was laid out with (a device added, removed or moved to another zone).
      const zone = [...zones.current].find((candidate) => candidate.dataset.laidOut !== cardCount(candidate));
      if (!zone) return;
      // A few of its cards at a time (each then remembers its size); last the zone alone, its cards skipping at their remembered sizes.
      const cards = [...zone.querySelectorAll<HTMLElement>('.device:not([data-laid-out])')].slice(0, CARDS_PER_STEP);
      step = [zone, ...cards];
      for (const element of step) element.dataset.layingOut = '';
      // Laid out in the next frame, whose drawing remembers the sizes; then they may skip again.
      frame = requestAnimationFrame(() => {
        frame = requestAnimationFrame(() => {
          for (const element of step) delete element.dataset.layingOut;
          for (const card of cards) card.dataset.laidOut = '';
          if (cards.length === 0) zone.dataset.laidOut = cardCount(zone);
          step = [];
          idle = requestIdleCallback(next);
        });
      });
    };
    idle = requestIdleCallback(next);
    return () => {
      cancelIdleCallback(idle);
      cancelAnimationFrame(frame);
      for (const element of step) delete element.dataset.layingOut;
    };
  }, [drawn]);

  return track;
}

const cardCount = (zone: HTMLElement) => String(zone.querySelectorAll('.device').length);
