import { useEffect, useState } from 'react'

/**
 * A sign-in form and a private note, on a page of their own (`/account`, reached with `history.pushState`): what
 * session replay must never show. Inputs are masked in recordings (passwords always); the note has the class
 * `svc-no-capture`, so it is neither autocaptured nor recorded (a placeholder of its size stands in replays).
 */
export function Account() {
  const [path, setPath] = useState(location.pathname)
  const [signedIn, setSignedIn] = useState(false)
  useEffect(() => {
    const onPop = () => setPath(location.pathname)
    addEventListener('popstate', onPop)
    return () => removeEventListener('popstate', onPop)
  }, [])
  const go = (to: string) => {
    history.pushState(null, '', to)
    setPath(to)
  }
  if (path !== '/account')
    return (
      <nav className="account-nav">
        <a
          href="/account"
          data-testid="to-account"
          onClick={(e) => {
            e.preventDefault()
            go('/account')
          }}
        >
          Your account
        </a>
      </nav>
    )
  return (
    <section className="account" aria-labelledby="account-title" data-testid="account">
      <h2 id="account-title">Your account</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          setSignedIn(true)
        }}
      >
        <label>
          Name <input name="name" autoComplete="username" data-testid="account-name" />
        </label>
        <label>
          Password <input name="password" type="password" autoComplete="current-password" data-testid="account-password" />
        </label>
        <button type="submit">Sign in</button>
      </form>
      {signedIn && <p role="status">Signed in.</p>}
      <p className="svc-no-capture" data-testid="private-note">
        Private note: card ending 4242, recovery code 7319-ALPHA.
      </p>
      <a
        href="/"
        onClick={(e) => {
          e.preventDefault()
          go('/')
        }}
      >
        Back
      </a>
    </section>
  )
}
