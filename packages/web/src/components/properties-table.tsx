import { Table, Text } from '@mantine/core';
import { show } from './format';

/** Properties as a two-column table, sorted by name; `$`-prefixed (SDK-set) ones after the user's own. */
export function PropertiesTable({ properties, label }: { properties: Record<string, unknown>; label: string }) {
  const entries = Object.entries(properties ?? {}).sort(([a], [b]) => Number(a.startsWith('$')) - Number(b.startsWith('$')) || a.localeCompare(b));
  if (entries.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No properties.
      </Text>
    );
  return (
    <Table fz="sm" verticalSpacing={4} aria-label={label} layout="fixed">
      <Table.Tbody>
        {entries.map(([key, value]) => (
          <Table.Tr key={key}>
            <Table.Td w="35%" className="mono wrap-anywhere" c="dimmed">
              {key}
            </Table.Td>
            <Table.Td className="mono wrap-anywhere">{show(value)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
