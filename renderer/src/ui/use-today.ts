/** The local day now (its start, epoch ms), changing at midnight: rows say the date for every day but this one. */
import { useEffect, useState } from 'react';

const startOfDay = (at: number) => new Date(at).setHours(0, 0, 0, 0);

export function useToday(): number {
  const [today, setToday] = useState(() => startOfDay(Date.now()));
  useEffect(() => {
    const tomorrow = new Date(today);
    tomorrow.setDate(tomorrow.getDate() + 1);
    // A second past midnight, so the new day has begun however the timer drifts.
    const timer = setTimeout(() => setToday(startOfDay(Date.now())), Math.max(1_000, tomorrow.getTime() - Date.now() + 1_000));
    return () => clearTimeout(timer);
  }, [today]);
  return today;
}
