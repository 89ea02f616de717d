import { useState } from 'react'
import { ServiceErrorBoundary } from 'service-js/react'

interface CartItem {
  name: string
  /** In cents; missing on an item whose price the shop could not load (the bug this component shows). */
  price?: number
  quantity: number
}

const ITEMS: CartItem[] = [
  { name: 'Coffee beans', price: 1450, quantity: 1 },
  { name: 'Paper filters', price: 399, quantity: 2 },
]

const money = (cents: number) => `$${(cents / 100).toFixed(2)}`

/** The cart's total in cents; throws on an item without a price, as a real bug would during render. */
function cartTotal(items: CartItem[]): number {
  let total = 0
  for (const item of items) {
    if (item.price === undefined) throw new TypeError(`Cart item has no price: ${item.name}`)
    total += item.price * item.quantity
  }
  return total
}

/**
 * A cart that breaks on demand: "Break the cart" adds an item without a price, and the next render throws
 * (in `cartTotal`). The error tracking demo: the boundary around it shows a fallback and reports the error.
 */
function Cart() {
  const [items, setItems] = useState(ITEMS)
  return (
    <section className="cart" aria-labelledby="cart-title">
      <h2 id="cart-title">Cart</h2>
      <ul className="cart-items">
        {items.map((item) => (
          <li key={item.name}>
            <span>
              {item.quantity} × {item.name}
            </span>
            <span>{item.price === undefined ? '?' : money(item.price * item.quantity)}</span>
          </li>
        ))}
      </ul>
      <p className="cart-total">
        Total <strong data-testid="cart-total">{money(cartTotal(items))}</strong>
      </p>
      <button type="button" data-testid="break-cart" onClick={() => setItems([...items, { name: 'Mystery item', quantity: 1 }])}>
        Break the cart
      </button>
    </section>
  )
}

/** The cart inside `ServiceErrorBoundary`: a render error shows a friendly fallback (and is captured), not a blank page. */
export function SafeCart() {
  return (
    <ServiceErrorBoundary
      fallback={({ reset }) => (
        <section className="cart cart-broken" role="alert" data-testid="cart-fallback">
          <h2>The cart hit a snag</h2>
          <p>Something went wrong while showing your cart. We have been told about it, and your items are safe.</p>
          <button type="button" onClick={reset}>
            Try again
          </button>
        </section>
      )}
    >
      <Cart />
    </ServiceErrorBoundary>
  )
}
