// Script-tag build: `<script src="service.iife.js">` then `window.service.init(...)`.
import { service } from './index'

;(window as unknown as { service: typeof service }).service = service
