import { Table, Text } from '@mantine/core';
import { Fragment } from 'react';
import type { FlagChange } from './flag-changes';

/**
 * The changes an action will make to a flag, as a table (what, now, after), shown before the action is confirmed: the
 * service never changes a flag behind anyone's back.
 */
export function FlagChanges({ flagKey, changes }: { flagKey: string; changes: FlagChange[] }) {
  if (!changes.length)
    return (
      <Text size="sm">
        The flag <code>{flagKey}</code> stays exactly as it is.
      </Text>
    );
  return (
    <>
      <Text size="sm">
        This changes the flag <code>{flagKey}</code> for everyone who reads it:
      </Text>
      <Table aria-label={`Changes to the flag ${flagKey}`} withTableBorder>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>What</Table.Th>
            <Table.Th>Now</Table.Th>
            <Table.Th>After</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {changes.map((c) => (
            <Table.Tr key={c.what}>
              <Table.Td>{c.what}</Table.Td>
              <Table.Td className="mono">
                <Parts text={c.before} />
              </Table.Td>
              <Table.Td className="mono">
                <Parts text={c.after} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </>
  );
}

/** A list ("control 50 %, test 50 %") that wraps between its parts, never inside one. */
function Parts({ text }: { text: string }) {
  const parts = text.split(', ');
  return parts.map((part, i) => (
    <Fragment key={i}>
      <span style={{ whiteSpace: 'nowrap' }}>
        {part}
        {i < parts.length - 1 ? ',' : ''}
      </span>{' '}
    </Fragment>
  ));
}
