import { describe, expect, it } from 'vitest';
import { parsePropertyFilters, propertyFiltersParam } from '../src/pages/events/property-filters';

describe("the events page's property filters", () => {
  it('sends only the filters that name a property and a value, as the API takes them', () => {
    expect(
      propertyFiltersParam([
        { key: ' plan ', value: 'pro' },
        { key: '', value: 'x' },
        { key: '$browser', value: '' },
      ]),
    ).toBe('[{"key":"plan","value":"pro"}]');
    expect(propertyFiltersParam([{ key: 'plan', value: '' }])).toBeUndefined();
  });

  it("reads them back from the page's address, and nothing from an address that holds something else", () => {
    expect(parsePropertyFilters('[{"key":"plan","value":"pro"},{"key":"n","value":3}]')).toEqual([
      { key: 'plan', value: 'pro' },
      { key: 'n', value: '3' },
    ]);
    for (const text of [undefined, '', 'plan=pro', '{"key":"plan"}', '[1, {"value": 2}]']) expect(parsePropertyFilters(text)).toEqual([]);
  });
});
