import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import Player from '../src/features/replays/player';
import { markersOf } from '../src/features/replays/timeline';
import type { RrwebEvent, SessionEvent } from '../src/features/replays/types';
import recording from './fixtures/replay-session.json';
import { renderPage } from './render';

const events = recording as RrwebEvent[];
const start = events[0]!.timestamp;
const end = events.at(-1)!.timestamp;
const at = (ms: number) => new Date(start + ms).toISOString();
const sessionEvents: SessionEvent[] = [
  { uuid: 'a', event: '$pageview', timestamp: at(0), properties: { $pathname: '/checkout' } },
  { uuid: 'b', event: '$exception', timestamp: at(end - start), properties: { $exception_types: ['TypeError'], $exception_message: 'x is undefined' } },
];

describe('the player', () => {
  it("draws the recording's first frame into its frame, with the session's events on the timeline", async () => {
    const total = end - start;
    await renderPage(() => <Player events={events} markers={markersOf(sessionEvents, start, total)} />);
    const frame = document.querySelector('.replay-frame iframe') as HTMLIFrameElement;
    expect(frame).toBeTruthy();
    await waitFor(() => expect(frame.contentDocument?.querySelector('h1')?.textContent).toBe('Checkout'));
    expect(frame.contentDocument?.getElementById('status')?.textContent).toBe('Your cart is empty.');
    expect(screen.getByTestId('replay-clock').textContent).toBe(
      `0:00 / ${Math.floor(total / 60_000)}:${String(Math.floor((total % 60_000) / 1000)).padStart(2, '0')}`,
    );
    expect(screen.getByRole('button', { name: '0:00: Pageview: /checkout' })).toBeTruthy();
    const exception = screen.getByRole('button', { name: '1:02: Exception: TypeError: x is undefined' });
    // The hatched stretch of the minute without activity, from the click on "Add" to the payment.
    expect(document.querySelectorAll('.replay-inactive')).toHaveLength(1);

    // A marker seeks there: the page of that moment (after the payment) is drawn.
    await act(async () => fireEvent.click(exception));
    expect(screen.getByTestId('replay-clock').textContent).toMatch(/^1:02 \//);
    // Going back makes a new replayer, with a frame of its own.
    const current = () => document.querySelector('.replay-frame iframe') as HTMLIFrameElement;
    const text = () => current().contentDocument?.body.textContent?.replace(/\s+/g, ' ') ?? '';
    await waitFor(() => expect(text()).toContain('Paid: your order 1042 is on its way.'));
    expect(text()).not.toContain('Blue mug');
    const slider = screen.getByRole('slider', { name: 'Position in the recording' }) as HTMLInputElement;
    expect(slider.getAttribute('aria-valuetext')).toMatch(/^1:02 of /);
    // At the end the slider is at its maximum, on one of its steps: a value off them the browser snaps, and React reports
    // the snapped value as a change (a seek back before the end) when a key's 'change' event follows its 'input'.
    expect(slider.value).toBe(slider.max);
    expect(Number(slider.value) % Number(slider.step)).toBe(0);

    // Back to the start, and forward to the cart: each frame as it was, nothing of the later ones left over.
    await act(async () => fireEvent.click(screen.getByRole('button', { name: '0:00: Pageview: /checkout' })));
    await waitFor(() => expect(text()).toContain('Your cart is empty.'));
    expect(text()).not.toContain('Paid');
    await act(async () => fireEvent.change(screen.getByRole('slider', { name: 'Position in the recording' }), { target: { value: '30000' } }));
    await waitFor(() => expect(text()).toContain('One item in your cart.Blue mug × 1 — €12.00'));
    expect(text()).not.toContain('Your cart is empty.');
  });

  it('plays and pauses with its button and the space bar', async () => {
    await renderPage(() => <Player events={events} markers={[]} />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Play' })));
    expect(screen.getByRole('button', { name: 'Pause' })).toBeTruthy();
    await act(async () => fireEvent.keyDown(document.body, { key: ' ' }));
    expect(screen.getByRole('button', { name: 'Play' })).toBeTruthy();
    // Typing a space in a field is not a command.
    const input = document.createElement('input');
    document.body.append(input);
    await act(async () => fireEvent.keyDown(input, { key: ' ' }));
    expect(screen.getByRole('button', { name: 'Play' })).toBeTruthy();
    input.remove();
  });
});
