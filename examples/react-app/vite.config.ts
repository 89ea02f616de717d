import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// Only variables starting with APP_PUBLIC_ reach the browser code (import.meta.env.APP_PUBLIC_*).
export default defineConfig({
  plugins: [react()],
  envPrefix: 'APP_PUBLIC_',
})
