/** Search by name and filters by zone and class, each labelled; choices come from the devices present. */
import type { DeviceFilter } from '../format/filter-devices';

export interface DeviceFiltersProps {
  filter: DeviceFilter;
  zones: readonly string[];
  classes: readonly string[];
  onChange(filter: DeviceFilter): void;
}

export function DeviceFilters({ filter, zones, classes, onChange }: DeviceFiltersProps) {
  return (
    <div className="device-filters" role="search">
      <label>
        Search devices{' '}
        <input type="search" value={filter.query} placeholder="Name" onChange={(event) => onChange({ ...filter, query: event.target.value })} />
      </label>
      <FilterChoice label="Zone" all="All zones" value={filter.zone} choices={zones} onChange={(zone) => onChange({ ...filter, zone })} />
      <FilterChoice label="Class" all="All classes" value={filter.deviceClass} choices={classes} onChange={(deviceClass) => onChange({ ...filter, deviceClass })} />
    </div>
  );
}

function FilterChoice(props: { label: string; all: string; value: string; choices: readonly string[]; onChange(value: string): void }) {
  return (
    <label>
      {props.label}{' '}
      <select value={props.value} onChange={(event) => props.onChange(event.target.value)}>
        <option value="">{props.all}</option>
        {props.choices.map((choice) => (
          <option key={choice} value={choice}>
            {choice}
          </option>
        ))}
      </select>
    </label>
  );
}
