/**
 * Search by name and filters by zone and class, each labelled; choices come from the devices present.
 * Says how many devices the filters leave ("3 of 12 devices") and clears them in one press.
 */
import { deviceClassLabel } from '../format/device-class';
import { type DeviceFilter, deviceCountLabel, isFiltering, NO_FILTER } from '../format/filter-devices';

export interface DeviceFiltersProps {
  filter: DeviceFilter;
  zones: readonly string[];
  classes: readonly string[];
  /** Devices the filter leaves, and all devices of the hub. */
  shown: number;
  total: number;
  onChange(filter: DeviceFilter): void;
}

export function DeviceFilters({ filter, zones, classes, shown, total, onChange }: DeviceFiltersProps) {
  const filtering = isFiltering(filter);
  return (
    <div className="device-filters" role="search">
      <label>
        <span className="filter-label">Search devices</span>{' '}
        <input type="search" value={filter.query} placeholder="Name" onChange={(event) => onChange({ ...filter, query: event.target.value })} />
      </label>
      <FilterChoice label="Zone" all="All zones" value={filter.zone} choices={zones} onChange={(zone) => onChange({ ...filter, zone })} />
      <FilterChoice
        label="Class"
        all="All classes"
        value={filter.deviceClass}
        choices={classes}
        labelOf={deviceClassLabel}
        onChange={(deviceClass) => onChange({ ...filter, deviceClass })}
      />
      <p className="filter-count" role="status" aria-live="polite">
        {deviceCountLabel(shown, total, filtering)}
      </p>
      {filtering && (
        <button type="button" className="filter-clear" onClick={() => onChange(NO_FILTER)}>
          Clear
        </button>
      )}
    </div>
  );
}

function FilterChoice(props: {
  label: string;
  all: string;
  value: string;
  choices: readonly string[];
  labelOf?(choice: string): string;
  onChange(value: string): void;
}) {
  return (
    <label>
      <span className="filter-label">{props.label}</span>{' '}
      <select value={props.value} onChange={(event) => props.onChange(event.target.value)}>
        <option value="">{props.all}</option>
        {props.choices.map((choice) => (
          <option key={choice} value={choice}>
            {props.labelOf ? props.labelOf(choice) : choice}
          </option>
        ))}
      </select>
    </label>
  );
}
