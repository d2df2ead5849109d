/**
 * Settings → Energy: the price of a kWh and its currency, which the Energy view multiplies what was used
 * by (docs/insights-app.md, "Energy"). Saved when the field is left or Save is pressed; a price that is
 * not a number from 0 to MAX_ENERGY_PRICE, or a currency code this browser does not know, is refused
 * with the reason and nothing is changed. An empty price shows no costs.
 */
import { type FormEvent, useId, useState } from 'react';
import { useStore } from 'zustand';
import { MAX_ENERGY_PRICE } from '../stores/preferences-store';
import { useStores } from './stores-context';

export function EnergyPriceSettings() {
  const { preferences } = useStores();
  const savedPrice = useStore(preferences, (s) => s.energyPrice);
  const savedCurrency = useStore(preferences, (s) => s.currency);
  const [price, setPrice] = useState(savedPrice === null ? '' : String(savedPrice));
  const [currency, setCurrency] = useState(savedCurrency);
  const [problem, setProblem] = useState<string | null>(null);
  const hintId = useId();
  const problemId = useId();

  const save = (event?: FormEvent) => {
    event?.preventDefault();
    const text = price.trim().replace(',', '.');
    const perKwh = text === '' ? null : Number(text);
    if (perKwh !== null && (!Number.isFinite(perKwh) || perKwh < 0 || perKwh > MAX_ENERGY_PRICE))
      return setProblem(`The price must be a number from 0 to ${MAX_ENERGY_PRICE}.`);
    const code = currency.trim().toUpperCase();
    if (!preferences.getState().setEnergyPrice(perKwh, code)) return setProblem('The currency must be a three-letter code such as EUR, GBP or USD.');
    setCurrency(code);
    setProblem(null);
  };

  return (
    <fieldset className="settings-group">
      <legend>Energy</legend>
      <form className="energy-price-fields" onSubmit={save}>
        <label>
          Price per kWh
          <input
            type="text"
            inputMode="decimal"
            value={price}
            onChange={(event) => setPrice(event.target.value)}
            onBlur={() => save()}
            aria-describedby={problem ? `${hintId} ${problemId}` : hintId}
            aria-invalid={problem !== null}
            size={8}
          />
        </label>
        <label>
          Currency
          <input
            type="text"
            value={currency}
            onChange={(event) => setCurrency(event.target.value)}
            onBlur={() => save()}
            maxLength={3}
            size={4}
            autoCapitalize="characters"
          />
        </label>
        <button type="submit">Save</button>
      </form>
      <p id={hintId} className="hint">
        The Energy view shows what your home&apos;s energy costs at this price. Leave it empty to show no costs.
      </p>
      {problem && (
        <p id={problemId} className="error-text" role="alert">
          {problem}
        </p>
      )}
    </fieldset>
  );
}
