import { Input } from '@mantine/core';
import { useId, type ReactNode } from 'react';

/**
 * A label and a line of help above a control that is no input (a segmented control, a group of fields), looking as
 * the inputs' labels do; the control gets the label's id to name itself by (`aria-labelledby`).
 */
export function Labelled({ label, description, children }: { label: string; description?: ReactNode; children: (labelId: string) => ReactNode }) {
  const id = useId();
  return (
    <Input.Wrapper label={label} description={description} labelElement="div" labelProps={{ id }} inputWrapperOrder={['label', 'input', 'description']}>
      <div style={{ marginTop: 4, marginBottom: description ? 4 : 0 }}>{children(id)}</div>
    </Input.Wrapper>
  );
}
