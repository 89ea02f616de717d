import { describe, expect, it } from 'vitest';
import { completeFilters, parsePropertyFilters } from '../src/features/events/property-filters';

describe("the events page's property filters", () => {
  it('sends only the filters that name a property and a value', () => {
    expect(
      completeFilters([
        { key: ' plan ', value: 'pro' },
        { key: '', value: 'x' },
        { key: '$browser', value: '' },
      ]),
    ).toEqual([{ key: 'plan', value: 'pro' }]);
    expect(completeFilters([{ key: 'plan', value: '' }])).toBeUndefined();
  });

  it("reads them back from the page's address (a list, or its JSON text), and nothing from one that holds something else", () => {
    const expected = [
      { key: 'plan', value: 'pro' },
      { key: 'n', value: '3' },
    ];
    expect(
      parsePropertyFilters([
        { key: 'plan', value: 'pro' },
        { key: 'n', value: 3 },
      ]),
    ).toEqual(expected);
    expect(parsePropertyFilters('[{"key":"plan","value":"pro"},{"key":"n","value":3}]')).toEqual(expected);
    for (const value of [undefined, '', 'plan=pro', { key: 'plan' }, '{"key":"plan"}', [1, { value: 2 }]]) expect(parsePropertyFilters(value)).toEqual([]);
  });
});
