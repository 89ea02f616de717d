/**
 * Generated from the service's OpenAPI document by openapi-typescript: do not edit.
 * Regenerate with `npm run api-types -w packages/web` after changing a route's schemas.
 */

export interface paths {
    "/api/projects/{project_id}/activity_log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a project's activity log, newest first
         * @description scope: Webhook, Project, FeatureFlag, EarlyAccessFeature, Experiment, Survey, ErrorTrackingIssue, SessionRecordingSettings, SessionRecording, LlmPrices, LlmPrompt, Cohort
         */
        get: operations["activity_log_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organization/activity_log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the organization's activity log (personal API keys, members, invites), newest first
         * @description scope: PersonalAPIKey, OrganizationMembership, OrganizationInvite
         */
        get: operations["organization_activity_log_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List webhooks */
        get: operations["webhooks_list"];
        put?: never;
        /** Create a webhook */
        post: operations["webhooks_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a webhook */
        get: operations["webhooks_retrieve"];
        put?: never;
        post?: never;
        /** Delete a webhook */
        delete: operations["webhooks_destroy"];
        options?: never;
        head?: never;
        /** Update a webhook */
        patch: operations["webhooks_partial_update"];
        trace?: never;
    };
    "/api/projects/{project_id}/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a webhook's deliveries, newest first */
        get: operations["webhooks_deliveries_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List projects */
        get: operations["projects_list"];
        put?: never;
        /** Create a project */
        post: operations["projects_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a project */
        get: operations["projects_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Update a project */
        patch: operations["projects_partial_update"];
        trace?: never;
    };
    "/api/personal_api_keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List personal API keys */
        get: operations["personal_api_keys_list"];
        put?: never;
        /** Create a personal API key */
        post: operations["personal_api_keys_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/personal_api_keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a personal API key */
        delete: operations["personal_api_keys_destroy"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/setup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether the service has no account yet (the first visit then creates the owner) */
        get: operations["setup_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/signup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create the first account, the owner's, and log in */
        post: operations["signup_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Log in: a session cookie and its CSRF token */
        post: operations["login_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Log out: end the session */
        post: operations["logout_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/@me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve the signed-in user (or the personal API key's owner) */
        get: operations["users__me_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/@me/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Change the signed-in user's password (the user's other sessions end) */
        post: operations["users__me_password_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organization/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List organization members */
        get: operations["organization_members_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organization/members/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete an organization member */
        delete: operations["organization_members_destroy"];
        options?: never;
        head?: never;
        /** Update an organization member */
        patch: operations["organization_members_partial_update"];
        trace?: never;
    };
    "/api/organization/members/{user_id}/password_reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Make a password reset link for a member (single use, valid 24 hours; their earlier unused link stops working) */
        post: operations["organization_members_password_reset_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organization/invites": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List organization invites */
        get: operations["organization_invites_list"];
        put?: never;
        /** Create an organization invite */
        post: operations["organization_invites_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organization/invites/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete an organization invite */
        delete: operations["organization_invites_destroy"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/invites/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve an invite by its link */
        get: operations["invites_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/invites/{token}/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Accept an invite: create its account and log in */
        post: operations["invites_accept_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/password_resets/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve the account of a password reset link */
        get: operations["password_resets_retrieve"];
        put?: never;
        /** Set a new password with a reset link and log in (the link is used up; the user's other sessions end) */
        post: operations["password_resets_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/feature_flags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List feature flags */
        get: operations["feature_flags_list"];
        put?: never;
        /** Create a feature flag */
        post: operations["feature_flags_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/feature_flags/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a feature flag */
        get: operations["feature_flags_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Update a feature flag */
        patch: operations["feature_flags_partial_update"];
        trace?: never;
    };
    "/api/projects/{project_id}/feature_flags/{id}/scheduled_changes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The flag's scheduled changes, soonest first */
        get: operations["feature_flags_scheduled_changes_list"];
        put?: never;
        /** Schedule a change of the flag, or a ramp of its rollout */
        post: operations["feature_flags_scheduled_changes_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/feature_flags/{id}/scheduled_changes/{change_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Cancel a pending scheduled change */
        delete: operations["feature_flags_scheduled_changes_destroy"];
        options?: never;
        head?: never;
        /** Change a pending scheduled change's time or what it does */
        patch: operations["feature_flags_scheduled_changes_partial_update"];
        trace?: never;
    };
    "/e": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Capture events sent in the query string */
        get: operations["e_retrieve"];
        put?: never;
        /** Capture events (PostHog capture protocol); 200 once they are stored */
        post: operations["e_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/i/v0/e": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Capture events sent in the query string */
        get: operations["i_v0_e_retrieve"];
        put?: never;
        /** Capture events (PostHog capture protocol); 200 once they are stored */
        post: operations["i_v0_e_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/capture": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Capture events sent in the query string */
        get: operations["capture_retrieve"];
        put?: never;
        /** Capture events (PostHog capture protocol); 200 once they are stored */
        post: operations["capture_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Capture events sent in the query string */
        get: operations["batch_retrieve"];
        put?: never;
        /** Capture events (PostHog capture protocol); 200 once they are stored */
        post: operations["batch_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/i/v0/ai/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Capture events sent in the query string */
        get: operations["i_v0_ai_batch_retrieve"];
        put?: never;
        /** Capture events (PostHog capture protocol); 200 once they are stored */
        post: operations["i_v0_ai_batch_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/persons": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List persons */
        get: operations["persons_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/person_property_names": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The names of the properties persons have */
        get: operations["person_property_names_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/group_types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project's group types, by index */
        get: operations["group_types_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List events */
        get: operations["events_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/event_counts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One event's counts per UTC day or hour, optionally by one property's values */
        get: operations["event_counts_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/event_names": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The names of the project's events */
        get: operations["event_names_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/early_access_feature": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List early access features */
        get: operations["early_access_feature_list"];
        put?: never;
        /** Create an early access feature */
        post: operations["early_access_feature_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/early_access_feature/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve an early access feature */
        get: operations["early_access_feature_retrieve"];
        put?: never;
        post?: never;
        /** Delete an early access feature */
        delete: operations["early_access_feature_destroy"];
        options?: never;
        head?: never;
        /** Update an early access feature */
        patch: operations["early_access_feature_partial_update"];
        trace?: never;
    };
    "/api/projects/{project_id}/early_access_feature/{id}/enrollments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the people and groups who opted in or out of an early access feature, newest first */
        get: operations["early_access_feature_enrollments_list"];
        put?: never;
        /** Opt a person or group in or out of an early access feature on their behalf (as their SDK would) */
        post: operations["early_access_feature_enrollments_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/early_access_feature/{id}/enrollments/per_day": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An early access feature's opt-ins and opt-outs per UTC day (each person's latest choice) */
        get: operations["early_access_feature_enrollments_per_day_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/early_access_features": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Early access features of the token's project in the given stages (posthog-js getEarlyAccessFeatures) */
        get: operations["early_access_features_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/experiments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List experiments */
        get: operations["experiments_list"];
        put?: never;
        /** Create an experiment */
        post: operations["experiments_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/experiments/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve an experiment */
        get: operations["experiments_retrieve"];
        put?: never;
        post?: never;
        /** Delete an experiment */
        delete: operations["experiments_destroy"];
        options?: never;
        head?: never;
        /** Update an experiment */
        patch: operations["experiments_partial_update"];
        trace?: never;
    };
    "/api/projects/{project_id}/experiments/{id}/ship": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ship a variant: everyone gets it, and the experiment completes */
        post: operations["experiments_ship_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/experiments/{id}/results": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An experiment's results: exposures per variant, each metric's statistics against control, sample ratio mismatch */
        get: operations["experiments_results_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/surveys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List surveys */
        get: operations["surveys_list"];
        put?: never;
        /** Create a survey */
        post: operations["surveys_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/surveys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a survey */
        get: operations["surveys_retrieve"];
        put?: never;
        post?: never;
        /** Delete a survey */
        delete: operations["surveys_destroy"];
        options?: never;
        head?: never;
        /** Update a survey */
        patch: operations["surveys_partial_update"];
        trace?: never;
    };
    "/api/projects/{project_id}/surveys/{id}/launch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Launch a survey (it starts now) or resume a stopped one */
        post: operations["surveys_launch_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/surveys/{id}/stop": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Stop a running survey (it ends now) */
        post: operations["surveys_stop_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/surveys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The running surveys of the token's project (posthog-js getSurveys); ETag / 304 */
        get: operations["public_surveys_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/surveys/{id}/results": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A survey's results: shown, dismissed, sent and abandoned counts, response rate, late responses, per day, and per question the choices, the rating distribution (NPS for 0–10) and the open answers with their person; filtered by time, a person property, a flag variant */
        get: operations["surveys_results_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/error_tracking/issues": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List error tracking issues */
        get: operations["error_tracking_issues_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/error_tracking/issues/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve an error tracking issue */
        get: operations["error_tracking_issues_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Update an error tracking issue */
        patch: operations["error_tracking_issues_partial_update"];
        trace?: never;
    };
    "/api/projects/{project_id}/error_tracking/issues/{id}/volume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Occurrences and people per day */
        get: operations["error_tracking_issues_volume_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/error_tracking/issues/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The issue's events, newest first */
        get: operations["error_tracking_issues_events_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/error_tracking/issues/{id}/people": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The people (distinct ids) the issue affected, most occurrences first */
        get: operations["error_tracking_issues_people_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/error_tracking/issues/{id}/merge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Merge other issues into this one: their fingerprints, events and people move here */
        post: operations["error_tracking_issues_merge_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/error_tracking/sourcemaps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List error tracking sourcemaps */
        get: operations["error_tracking_sourcemaps_list"];
        put?: never;
        /** Upload a source map (replaces the map of the same release and URL) */
        post: operations["error_tracking_sourcemaps_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/error_tracking/sourcemaps/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete an error tracking sourcemap */
        delete: operations["error_tracking_sourcemaps_destroy"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/s": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Session recordings (posthog-js `$snapshot` events); 200 once they are stored */
        post: operations["s_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/session_recording_settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project's session recording settings, its retention and the disk its recordings take */
        get: operations["session_recording_settings_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change the project's session recording settings (the remote config follows at once) */
        patch: operations["session_recording_settings_partial_update"];
        trace?: never;
    };
    "/api/projects/{project_id}/session_recordings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List session recordings, newest first */
        get: operations["session_recordings_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/session_recordings/{session_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a session recording */
        get: operations["session_recordings_retrieve"];
        put?: never;
        post?: never;
        /** Delete a session recording (its stored events and metadata) */
        delete: operations["session_recordings_destroy"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/session_recordings/{session_id}/snapshots": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A recording's rrweb events, in time order, each once (streamed; what is stored so far while it is recorded) */
        get: operations["session_recordings_snapshots_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/session_recordings/{session_id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A recording's session events for its timeline (pageviews, clicks, custom events, exceptions) */
        get: operations["session_recordings_events_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/llm/generations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List generations and embeddings, newest first */
        get: operations["llm_generations_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/llm/traces": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List traces, newest first: each with its generations, tokens, cost, latency and whether it failed */
        get: operations["llm_traces_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/llm/traces/{trace_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A trace: its spans and generations as a tree (`children`) */
        get: operations["llm_traces_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/llm/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Calls, tokens, cost, latency p50/p95 and error rate per day, by model, provider or flag variant */
        get: operations["llm_usage_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/llm_prices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project's price overrides (USD per million tokens) */
        get: operations["llm_prices_retrieve"];
        /** Replace the project's price overrides; generations stored from now on are priced by them */
        put: operations["llm_prices_update"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/i/v0/ai/otel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ingest OpenTelemetry traces (OTLP/HTTP): GenAI spans become generations, the spans above them spans and traces
         * @description An OTLP `ExportTraceServiceRequest`, JSON or protobuf, with the project token as `Authorization: Bearer <token>` (or `?token=`). Spans with `gen_ai.*` attributes and the Vercel AI SDK’s `ai.*.doGenerate`/`doStream` are stored as `$ai_generation` (`$ai_embedding`) events, the LLM spans and the spans above them in the export as `$ai_span` (a root: `$ai_trace`); other spans are left out. 200 once stored; 400 naming the spans refused (the others are stored).
         */
        post: operations["i_v0_ai_otel_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/i/v0/ai/otel/v1/traces": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ingest OpenTelemetry traces (OTLP/HTTP): GenAI spans become generations, the spans above them spans and traces
         * @description An OTLP `ExportTraceServiceRequest`, JSON or protobuf, with the project token as `Authorization: Bearer <token>` (or `?token=`). Spans with `gen_ai.*` attributes and the Vercel AI SDK’s `ai.*.doGenerate`/`doStream` are stored as `$ai_generation` (`$ai_embedding`) events, the LLM spans and the spans above them in the export as `$ai_span` (a root: `$ai_trace`); other spans are left out. 200 once stored; 400 naming the spans refused (the others are stored).
         */
        post: operations["i_v0_ai_otel_v1_traces_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/llm_prompts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List llm prompts */
        get: operations["llm_prompts_list"];
        put?: never;
        /** Create a llm prompt */
        post: operations["llm_prompts_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/llm_prompts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a llm prompt */
        get: operations["llm_prompts_retrieve"];
        put?: never;
        post?: never;
        /** Delete a llm prompt */
        delete: operations["llm_prompts_destroy"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/llm_prompts/{id}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A prompt's versions, newest first */
        get: operations["llm_prompts_versions_list"];
        put?: never;
        /** Store the next version of a prompt (and move labels onto it) */
        post: operations["llm_prompts_versions_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/llm_prompts/{id}/labels/{label}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Point a label (such as production) at a version */
        put: operations["llm_prompts_labels_update"];
        post?: never;
        /** Remove a label from a prompt */
        delete: operations["llm_prompts_labels_destroy"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/environments/@current/llm_prompts/name/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A prompt's version by name: the pinned version, else the label's, else the newest (@posthog/ai Prompts.get) */
        get: operations["llm_prompts_by_name_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/environments/@current/llm_prompts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every prompt at its newest version, or at a label's (@posthog/ai Prompts.getAll) */
        get: operations["llm_prompts_resolved_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/cohorts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List cohorts */
        get: operations["cohorts_list"];
        put?: never;
        /** Create a cohort: static (distinct ids in JSON, or a text/csv body) or dynamic (filters) */
        post: operations["cohorts_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/cohorts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a cohort */
        get: operations["cohorts_retrieve"];
        put?: never;
        post?: never;
        /** Delete a cohort */
        delete: operations["cohorts_destroy"];
        options?: never;
        head?: never;
        /** Update a cohort */
        patch: operations["cohorts_partial_update"];
        trace?: never;
    };
    "/api/projects/{project_id}/cohorts/{id}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add distinct ids to a static cohort (JSON or text/csv) */
        post: operations["cohorts_members_create"];
        /** Remove distinct ids from a static cohort (JSON or text/csv) */
        delete: operations["cohorts_members_destroy"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{project_id}/cohorts/{id}/persons": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A page of a cohort's members */
        get: operations["cohorts_persons_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/flags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Evaluate every flag for a distinct id (PostHog /flags?v=2) */
        post: operations["flags_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/decide": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Legacy /decide (v=3 legacy, v=4 as /flags v2) */
        post: operations["decide_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/array/{token}/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Remote config for posthog-js: the features this service offers */
        get: operations["array_config_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/array/{token}/config.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Remote config for posthog-js as a script (sets window._POSTHOG_REMOTE_CONFIG[token]) */
        get: operations["array_config_js_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/flags/definitions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Flag definitions, group type mapping and cohorts for local evaluation (ETag / 304) */
        get: operations["flags_definitions_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/feature_flag/local_evaluation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Flag definitions, group type mapping and cohorts for local evaluation (ETag / 304) */
        get: operations["feature_flag_local_evaluation_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ofrep/v1/evaluate/flags/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** OFREP: evaluate one flag for a context (OpenFeature server providers) */
        post: operations["ofrep_evaluate_flag"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ofrep/v1/evaluate/flags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** OFREP: evaluate every flag for a context (OpenFeature client providers; ETag / 304) */
        post: operations["ofrep_evaluate_flags"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/flags/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Server-sent events: a refetchEvaluation notice whenever a change may change the project’s flag answers */
        get: operations["flags_stream_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** ActivityEntry */
        ActivityEntry: {
            id: number;
            /** @description Webhook | Project | FeatureFlag | EarlyAccessFeature | Experiment | Survey | ErrorTrackingIssue | SessionRecordingSettings | SessionRecording | LlmPrices | LlmPrompt | Cohort | PersonalAPIKey | OrganizationMembership | OrganizationInvite */
            scope: string;
            item_id: string;
            /** @description created | updated | deleted (a personal API key revoked: deleted) */
            activity: string;
            /** @description the user of the session that made the change; null for a personal API key, the command line, or a removed user */
            user: {
                id: number;
                email: string;
                name: string;
            } | null;
            actor: {
                /** @enum {string} */
                type: "user" | "personal_api_key" | "command_line";
                /** @description the user's name or the key's label when the change was made */
                name: string;
                /** @description the user, or the owner of the key used */
                user_id: number | null;
                api_key_id: string | null;
            };
            /** Format: date-time */
            created_at: string;
            detail: {
                /** @description the item's name (key, label, email) at the time */
                name: string | null;
                /** @description the changed fields only (on create: every field, before null); secrets show as "[hidden]"; null on delete */
                changes: {
                    field: string;
                    before: unknown;
                    after: unknown;
                }[] | null;
            };
        };
        /** AffectedPerson */
        AffectedPerson: {
            distinct_id: string;
            person_id: string | null;
            occurrences: number;
            /** Format: date-time */
            last_seen: string;
            properties: {
                [key: string]: unknown;
            };
        };
        /** Cohort */
        Cohort: {
            id: number;
            name: string;
            description: string;
            /** @description a list of distinct ids (static) or filters evaluated for each person (dynamic) */
            is_static: boolean;
            filters: {
                [key: string]: unknown;
            };
            /** @description static: its distinct ids; dynamic: the stored persons in it now */
            count: number;
            deleted: boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** CohortMember */
        CohortMember: {
            distinct_id: string;
            /** @description the stored person's uuid, null when none is stored */
            person_id: string | null;
            properties: {
                [key: string]: unknown;
            };
        };
        /** CreatedEarlyAccessFeature */
        CreatedEarlyAccessFeature: {
            /** Format: uuid */
            id: string;
            feature_flag: components["schemas"]["FlagSummary"] | null;
            name: string;
            description: string;
            stage: components["schemas"]["Stage"];
            documentation_url: string;
            /** Format: date-time */
            created_at: string;
            payload: {
                [key: string]: unknown;
            } | null;
            feature_flag_id: number;
        };
        /** CreatedInvite */
        CreatedInvite: {
            id: string;
            role: components["schemas"]["Role"];
            email: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string;
            /** @description the single-use invite link, shown once: `<origin>/invite/<token>` */
            url: string;
        };
        /** CreatedPersonalApiKey */
        CreatedPersonalApiKey: {
            id: string;
            label: string;
            /** @description the first and last characters of the key */
            mask_value: string;
            scopes: string[];
            /** @description null: every project */
            project_ids: number[] | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            last_used_at: string | null;
            /** @description whose key it is; null: made by the command line (the first start's key, `service keys create`) */
            user: {
                id: number;
                email: string;
                name: string;
            } | null;
            /** @description the key itself, shown this once */
            value: string;
        };
        /** CreatedWebhook */
        CreatedWebhook: {
            /** Format: uuid */
            id: string;
            /** @description where deliveries are POSTed (http or https) */
            url: string;
            /** @description what the webhook is sent for, at least one of: feature_flag.changed, early_access.enrolled, early_access.unenrolled, early_access.stage_changed, error.new_issue, error.regressed */
            kinds: components["schemas"]["WebhookKind"][];
            /** @description false: nothing is enqueued for it, and pending deliveries fail */
            enabled: boolean;
            /** @description the start and end of the signing secret (the secret is shown once, on create) */
            secret_mask: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** @description the signing secret (Standard Webhooks, `whsec_…`); shown only in this answer */
            secret: string;
        };
        /** EarlyAccessFeature */
        EarlyAccessFeature: {
            /** Format: uuid */
            id: string;
            feature_flag: components["schemas"]["FlagSummary"] | null;
            name: string;
            description: string;
            stage: components["schemas"]["Stage"];
            documentation_url: string;
            /** Format: date-time */
            created_at: string;
            payload: {
                [key: string]: unknown;
            } | null;
        };
        /** Enrollment */
        Enrollment: {
            /** @description the person's distinct id; null for a group */
            distinct_id: string | null;
            /**
             * Format: uuid
             * @description the person's uuid; null for a group
             */
            person_id: string | null;
            /** @description null for a person */
            group_type: string | null;
            /** @description null for a person */
            group_key: string | null;
            /** @description opted in (true) or out (false) */
            enrolled: boolean;
            /** @description the feature's stage when they opted in or out */
            stage: string;
            /**
             * Format: date-time
             * @description when they opted in or out
             */
            updated_at: string;
        };
        /** EnrollmentPage */
        EnrollmentPage: {
            count: number;
            next: string | null;
            previous: string | null;
            results: components["schemas"]["Enrollment"][];
            /** @description over every enrollment of the feature, whatever the filter and page */
            counts: {
                enrolled: number;
                opted_out: number;
            };
        };
        /**
         * EnrollmentsPerDay
         * @description each enrollment's latest choice, by its day: what the feature's counts count, so they add up to them
         */
        EnrollmentsPerDay: {
            /** @description every day of the range from the day the feature was created (or of its first choice, when earlier), oldest first */
            days: string[];
            /** @description people (or groups) opted in now who made that choice that day */
            opted_in: number[];
            /** @description people (or groups) opted out now who made that choice that day */
            opted_out: number[];
        };
        /**
         * Error
         * @description Every error: `{type, code, detail, attr}`
         */
        Error: {
            type: string;
            code: string;
            detail: string;
            attr: string | null;
        };
        /** ErrorEvent */
        ErrorEvent: {
            uuid: string;
            distinct_id: string;
            /** Format: date-time */
            timestamp: string;
            properties: {
                [key: string]: unknown;
            };
        };
        /** ErrorIssue */
        ErrorIssue: {
            /** Format: uuid */
            id: string;
            name: string;
            description: string;
            status: components["schemas"]["IssueStatus"];
            /** Format: date-time */
            first_seen: string;
            /** Format: date-time */
            last_seen: string;
            occurrences: number;
            /** @description distinct ids affected */
            people: number;
            /**
             * Format: date-time
             * @description when the issue last occurred again after being resolved
             */
            regressed_at: string | null;
            /** @description the fingerprints grouped into this issue (several after a merge) */
            fingerprints: string[];
        };
        /** ErrorIssueDetail */
        ErrorIssueDetail: {
            /** Format: uuid */
            id: string;
            name: string;
            description: string;
            status: components["schemas"]["IssueStatus"];
            /** Format: date-time */
            first_seen: string;
            /** Format: date-time */
            last_seen: string;
            occurrences: number;
            /** @description distinct ids affected */
            people: number;
            /**
             * Format: date-time
             * @description when the issue last occurred again after being resolved
             */
            regressed_at: string | null;
            /** @description the fingerprints grouped into this issue (several after a merge) */
            fingerprints: string[];
            /** @description the newest occurrence, with its stack (`$exception_list`) */
            latest_event: components["schemas"]["ErrorEvent"] | null;
        };
        /** Event */
        Event: {
            /**
             * Format: uuid
             * @description the event's uuid (sent by the SDK, or made at ingestion)
             */
            id: string;
            event: string;
            distinct_id: string;
            properties: {
                [key: string]: unknown;
            };
            /**
             * Format: date-time
             * @description when it happened, client clock corrected
             */
            timestamp: string;
        };
        /** EventCounts */
        EventCounts: {
            /** @enum {unknown} */
            interval: "day" | "hour";
            /** @description every bucket of the range, with or without events: `2026-11-23` by day, `2026-11-23T14:00:00Z` by hour */
            days: string[];
            /** @description most events first; at most 25, the smallest summed into `$other` (last) */
            series: {
                /** @description the property value as text (`true`, `3`, `control`); null: without the property (or without breakdown); `$other`: the rest */
                breakdown_value: string | null;
                /** @description one per bucket */
                counts: number[];
                total: number;
            }[];
        };
        /** EventNames */
        EventNames: {
            /** @description the names of the project's stored events, sorted, at most 1000 */
            results: string[];
        };
        /** Experiment */
        Experiment: {
            id: number;
            name: string;
            description: string;
            feature_flag_key: string;
            feature_flag: components["schemas"]["FlagSummary"];
            variants: components["schemas"]["ExperimentVariant"][];
            metrics: components["schemas"]["Metric"][];
            /** Format: date-time */
            start_date: string | null;
            /** Format: date-time */
            end_date: string | null;
            status: components["schemas"]["ExperimentStatus"];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** ExperimentResults */
        ExperimentResults: {
            experiment_id: number;
            method: components["schemas"]["Method"];
            sequential: boolean;
            /** Format: date-time */
            computed_at: string;
            /** @description exposed people counted in the results */
            exposures_total: number;
            /** @description people who saw more than one variant: left out of everything */
            excluded_multiple_variants: number;
            /** @description chi-square test of the exposures against the planned split */
            srm_p_value: number;
            /** @description the sample ratio check fails below this p-value (0.05) */
            srm_threshold: number;
            /** @description sample ratio mismatch: srm_p_value below srm_threshold */
            srm_flagged: boolean;
            /** @description in the order of the experiment’s metrics; the first is the primary */
            metrics: components["schemas"]["MetricResult"][];
            exposures_by_day: {
                /** @description UTC days (`YYYY-MM-DD`) of the experiment */
                days: string[];
                series: {
                    key: string;
                    /** @description first exposures per day */
                    counts: number[];
                }[];
            };
        };
        /**
         * ExperimentStatus
         * @enum {unknown}
         */
        ExperimentStatus: "draft" | "running" | "complete";
        /** ExperimentVariant */
        ExperimentVariant: {
            key: string;
            rollout_percentage: number;
        };
        /** FeatureFlag */
        FeatureFlag: {
            id: number;
            team_id: number;
            name: string;
            key: string;
            filters: {
                [key: string]: unknown;
            };
            deleted: boolean;
            active: boolean;
            ensure_experience_continuity: boolean;
            version: number;
            /** Format: date-time */
            created_at: string;
        };
        /** FeatureFlagDetail */
        FeatureFlagDetail: {
            id: number;
            team_id: number;
            name: string;
            key: string;
            filters: {
                [key: string]: unknown;
            };
            deleted: boolean;
            active: boolean;
            ensure_experience_continuity: boolean;
            version: number;
            /** Format: date-time */
            created_at: string;
            /** @description the early access feature and the experiments that use the flag, the survey that made it */
            used_by: components["schemas"]["FlagUse"][];
        };
        /** FlagSummary */
        FlagSummary: {
            id: number;
            team_id: number;
            name: string;
            key: string;
            filters: {
                [key: string]: unknown;
            };
            deleted: boolean;
            active: boolean;
            ensure_experience_continuity: boolean;
        };
        /** FlagUse */
        FlagUse: {
            /** @enum {unknown} */
            type: "early_access_feature" | "experiment" | "survey";
            id: number | string;
            name: string;
            /** @description an early access feature's stage, an experiment's or a survey's status */
            status: string;
        };
        /** GroupType */
        GroupType: {
            /** @description what flags name it by (`aggregation_group_type_index`, `group_type_index`) */
            group_type_index: number;
            /** @description its name, as SDKs send it (`$groups`: `{"company": "acme"}`) */
            group_type: string;
        };
        /** Invite */
        Invite: {
            id: string;
            role: components["schemas"]["Role"];
            email: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string;
            /** @description user id; null when made with a command-line key or by a removed user */
            created_by: number | null;
        };
        /** InviteInfo */
        InviteInfo: {
            /** @enum {boolean} */
            valid: true;
            role: components["schemas"]["Role"];
            email: string | null;
            organization_name: string;
        };
        /**
         * IssueStatus
         * @description active | resolved (occurring again reopens it as a regression) | suppressed (still recorded, no webhooks)
         * @enum {unknown}
         */
        IssueStatus: "active" | "resolved" | "suppressed";
        /** IssueVolume */
        IssueVolume: {
            /** @enum {string} */
            interval: "day";
            /** @description one per day, oldest first, zeros included */
            points: {
                /** Format: date */
                date: string;
                occurrences: number;
                people: number;
            }[];
        };
        /** LlmGeneration */
        LlmGeneration: {
            /** @description the event uuid */
            id: string;
            /** @description `generation`, `embedding`, `span` or `trace` */
            kind: string;
            /** @description `$ai_model` */
            model: string | null;
            /** @description `$ai_provider` */
            provider: string | null;
            /** @description null when the provider returned no usage */
            input_tokens: number | null;
            /** @description null when the provider returned no usage */
            output_tokens: number | null;
            /** @description cached input tokens read */
            cache_read_tokens: number | null;
            /** @description input tokens written to the cache */
            cache_creation_tokens: number | null;
            /** @description reasoning tokens */
            reasoning_tokens: number | null;
            /** @description USD */
            input_cost_usd: number | null;
            /** @description USD */
            output_cost_usd: number | null;
            /** @description USD: the client’s when it sent one, else from the price table; null for an unknown model */
            cost_usd: number | null;
            /** @description seconds */
            latency: number | null;
            /** @description seconds, streamed calls */
            time_to_first_token: number | null;
            /** @description the provider’s HTTP status */
            http_status: number | null;
            trace_id: string;
            /** @description `$ai_span_id` */
            span_id: string | null;
            /** @description `$ai_parent_id`: the span or trace above */
            parent_id: string | null;
            /** @description `$ai_span_name` */
            name: string | null;
            is_error: boolean;
            /** @description `$ai_error`, cut to 8 KB */
            error: string | null;
            distinct_id: string;
            /** @description the person's uuid when the event was stored */
            person_id: string | null;
            /** @description `$session_id`: its recording */
            session_id: string | null;
            /** @description the flags and variants the call was made under */
            flags: {
                [key: string]: string | boolean;
            };
            timestamp: string;
        };
        /** LlmGenerationPage */
        LlmGenerationPage: {
            count: number;
            next: string | null;
            previous: string | null;
            results: components["schemas"]["LlmGeneration"][];
        };
        /** LlmPrice */
        LlmPrice: {
            provider: string;
            /** @description exact id; dated snapshots of it (`<model>-…`) match too */
            model: string;
            /** @description USD per million input tokens */
            input: number;
            /** @description USD per million output tokens */
            output: number;
            /** @description USD per million cached input tokens read */
            cache_read?: number;
            /** @description USD per million input tokens written to the cache */
            cache_write?: number;
        };
        /** LlmPrices */
        LlmPrices: {
            prices: components["schemas"]["LlmPrice"][];
        };
        /** LlmPrompt */
        LlmPrompt: {
            id: string;
            name: string;
            /** @description the newest version */
            version: number;
            /** @description the newest version's text */
            prompt: string;
            config: {
                [key: string]: unknown;
            } | null;
            labels: components["schemas"]["LlmPromptLabel"][];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** LlmPromptLabel */
        LlmPromptLabel: {
            name: string;
            version: number;
        };
        /** LlmPromptResolved */
        LlmPromptResolved: {
            id: string;
            name: string;
            prompt: string;
            version: number;
            /** @description the label asked for, when it names this version */
            label?: string;
            config: {
                [key: string]: unknown;
            } | null;
            all_labels: components["schemas"]["LlmPromptLabel"][];
            /** Format: date-time */
            created_at: string;
        };
        /** LlmPromptVersion */
        LlmPromptVersion: {
            version: number;
            prompt: string;
            config: {
                [key: string]: unknown;
            } | null;
            /** @description the labels on this version */
            labels: string[];
            /** Format: date-time */
            created_at: string;
        };
        /** LlmPromptVersionList */
        LlmPromptVersionList: {
            results: components["schemas"]["LlmPromptVersion"][];
        };
        /** LlmTrace */
        LlmTrace: {
            trace_id: string;
            start_time: string;
            generation_count: number;
            /** @description the generations’ cost added up; null when none has one */
            cost_usd: number | null;
            is_error: boolean;
            /** @description the roots: events whose parent is not in the trace */
            children: components["schemas"]["LlmTraceNode"][];
        };
        /** LlmTraceNode */
        LlmTraceNode: {
            /** @description the event uuid */
            id: string;
            /** @description `generation`, `embedding`, `span` or `trace` */
            kind: string;
            /** @description `$ai_model` */
            model: string | null;
            /** @description `$ai_provider` */
            provider: string | null;
            /** @description null when the provider returned no usage */
            input_tokens: number | null;
            /** @description null when the provider returned no usage */
            output_tokens: number | null;
            /** @description cached input tokens read */
            cache_read_tokens: number | null;
            /** @description input tokens written to the cache */
            cache_creation_tokens: number | null;
            /** @description reasoning tokens */
            reasoning_tokens: number | null;
            /** @description USD */
            input_cost_usd: number | null;
            /** @description USD */
            output_cost_usd: number | null;
            /** @description USD: the client’s when it sent one, else from the price table; null for an unknown model */
            cost_usd: number | null;
            /** @description seconds */
            latency: number | null;
            /** @description seconds, streamed calls */
            time_to_first_token: number | null;
            /** @description the provider’s HTTP status */
            http_status: number | null;
            trace_id: string;
            /** @description `$ai_span_id` */
            span_id: string | null;
            /** @description `$ai_parent_id`: the span or trace above */
            parent_id: string | null;
            /** @description `$ai_span_name` */
            name: string | null;
            is_error: boolean;
            /** @description `$ai_error`, cut to 8 KB */
            error: string | null;
            distinct_id: string;
            /** @description the person's uuid when the event was stored */
            person_id: string | null;
            /** @description `$session_id`: its recording */
            session_id: string | null;
            /** @description the flags and variants the call was made under */
            flags: {
                [key: string]: string | boolean;
            };
            timestamp: string;
            /** @description the event’s properties as captured, its inputs and outputs (`$ai_input`, `$ai_output_choices`, …) whole; null past the trace’s budget of 32 MB (in time order) */
            properties: {
                [key: string]: unknown;
            } | null;
            /** @description the events whose parent is this one */
            children: components["schemas"]["LlmTraceNode"][];
        };
        /** LlmTraceSummary */
        LlmTraceSummary: {
            /** @description the trace id (`$ai_trace_id`) */
            id: string;
            /** @description the `$ai_trace` event’s name, else the first span name; null when none was sent */
            name: string | null;
            distinct_id: string;
            /** @description the person's uuid when the events were stored */
            person_id: string | null;
            /** @description `$session_id` of its events: their recording */
            session_id: string | null;
            /** @description its first event’s time */
            started_at: string;
            /** @description seconds: the `$ai_trace` event’s latency when sent, else the longest of its events */
            latency: number | null;
            /** @description generations and embeddings in it */
            generations: number;
            /** @description its generations’ cost added up; null when none has one */
            cost_usd: number | null;
            /** @description its generations’ input tokens added up; null when none reported usage */
            input_tokens: number | null;
            /** @description its generations’ output tokens added up; null when none reported usage */
            output_tokens: number | null;
            /** @description any of its events failed */
            is_error: boolean;
        };
        /** LlmTraceSummaryPage */
        LlmTraceSummaryPage: {
            count: number;
            next: string | null;
            previous: string | null;
            results: components["schemas"]["LlmTraceSummary"][];
        };
        /** LlmUsage */
        LlmUsage: {
            interval: string;
            by: string;
            /** @description true when more generations matched than usage reads (narrow the dates) */
            truncated: boolean;
            series: {
                /** @description the model, provider or variant */
                key: string | null;
                calls: number;
                input_tokens: number;
                output_tokens: number;
                /** @description the generations with a known cost, added up */
                cost_usd: number;
                /** @description seconds */
                latency_p50: number | null;
                /** @description seconds */
                latency_p95: number | null;
                /** @description errors / calls */
                error_rate: number;
                buckets: {
                    /** @description the interval’s start, ISO */
                    date: string;
                    calls: number;
                    input_tokens: number;
                    output_tokens: number;
                    /** @description the generations with a known cost, added up */
                    cost_usd: number;
                    /** @description seconds */
                    latency_p50: number | null;
                    /** @description seconds */
                    latency_p95: number | null;
                    /** @description errors / calls */
                    error_rate: number;
                }[];
            }[];
        };
        /** Member */
        Member: {
            id: number;
            email: string;
            name: string;
            role: components["schemas"]["Role"];
            /** Format: date-time */
            joined_at: string;
        };
        /**
         * Method
         * @enum {unknown}
         */
        Method: "bayesian" | "frequentist";
        /** Metric */
        Metric: {
            /** @enum {unknown} */
            kind: "conversion" | "mean";
            event: string;
            properties?: {
                key: string;
                value: string | number | boolean;
            }[];
            /** @description conversion only: days after exposure that count (default 14) */
            window_days?: number;
            property?: string;
            name?: string;
        };
        /** MetricResult */
        MetricResult: {
            metric: {
                /** @enum {unknown} */
                kind: "conversion" | "mean";
                event: string;
                properties?: {
                    key: string;
                    value: string | number | boolean;
                }[];
                window_days?: number;
                property?: string;
                name?: string;
            };
            primary: boolean;
            variants: components["schemas"]["VariantResult"][];
        };
        /** OfrepBulkEvaluation */
        OfrepBulkEvaluation: {
            flags: {
                key: string;
                /** @description absent: use the default in code */
                value?: unknown;
                reason: string;
                variant?: string;
                metadata: {
                    [key: string]: string | number | boolean;
                };
            }[];
            eventStreams: unknown[];
        };
        /**
         * OfrepError
         * @description An OFREP error: `{key?, errorCode, errorDetails}` (OFREP's own shape, not `Error`)
         */
        OfrepError: {
            key?: string;
            /** @description PARSE_ERROR, TARGETING_KEY_MISSING, INVALID_CONTEXT, FLAG_NOT_FOUND or GENERAL */
            errorCode: string;
            errorDetails?: string;
        };
        /** OfrepServerError */
        OfrepServerError: {
            errorDetails: string;
        };
        /** PasswordReset */
        PasswordReset: {
            user_id: number;
            email: string;
            /** Format: date-time */
            expires_at: string;
            /** @description the single-use link to set a new password, shown once: `<origin>/reset-password/<token>` */
            url: string;
        };
        /** PasswordResetInfo */
        PasswordResetInfo: {
            /** @enum {boolean} */
            valid: true;
            email: string;
            name: string;
        };
        /** Person */
        Person: {
            /** Format: uuid */
            id: string;
            distinct_ids: string[];
            properties: {
                [key: string]: unknown;
            };
            is_identified: boolean;
            /** Format: date-time */
            created_at: string;
        };
        /** PersonalApiKey */
        PersonalApiKey: {
            id: string;
            label: string;
            /** @description the first and last characters of the key */
            mask_value: string;
            scopes: string[];
            /** @description null: every project */
            project_ids: number[] | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            last_used_at: string | null;
            /** @description whose key it is; null: made by the command line (the first start's key, `service keys create`) */
            user: {
                id: number;
                email: string;
                name: string;
            } | null;
        };
        /** Project */
        Project: {
            id: number;
            name: string;
            /** @description public project token for SDKs */
            api_token: string;
            /** Format: date-time */
            created_at: string;
        };
        /** PublicSurvey */
        PublicSurvey: {
            /** Format: uuid */
            id: string;
            name: string;
            description: string;
            type: components["schemas"]["SurveyType"];
            questions: components["schemas"]["SurveyQuestion"][];
            appearance: {
                [key: string]: unknown;
            } | null;
            conditions: {
                [key: string]: unknown;
            } | null;
            linked_flag_key: string | null;
            targeting_flag_key: string;
            internal_targeting_flag_key: string;
            /** Format: date-time */
            start_date: string | null;
            /** Format: date-time */
            end_date: string | null;
            schedule: components["schemas"]["SurveySchedule"];
            current_iteration: number | null;
            /** Format: date-time */
            current_iteration_start_date: string | null;
            enable_partial_responses: boolean;
            feature_flag_keys: {
                key: string;
                value: string | null;
            }[];
        };
        /** PublicSurveyList */
        PublicSurveyList: {
            surveys: components["schemas"]["PublicSurvey"][];
        };
        /**
         * Role
         * @description viewer: read; member: read and change flags, early access features and the rest; admin: also members, invites, API keys, project settings, webhooks; owner: everything
         * @enum {string}
         */
        Role: "viewer" | "member" | "admin" | "owner";
        /** ScheduledChange */
        ScheduledChange: {
            id: number;
            feature_flag_id: number;
            /** Format: date-time */
            scheduled_at: string;
            payload: components["schemas"]["ScheduledChangePayload"];
            /** @enum {unknown} */
            status: "pending" | "applied" | "failed" | "cancelled";
            /** @description the steps of one ramp share it */
            ramp_id: string | null;
            /** @description why a failed change was not applied (the flag's rules refused it) */
            failure_reason: string | null;
            created_by: string;
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description when it was applied, failed or cancelled
             */
            executed_at: string | null;
        };
        /** ScheduledChangePayload */
        ScheduledChangePayload: {
            /** @description turn the flag on or off */
            active?: boolean;
            /** @description the rollout of every condition set of the flag */
            rollout_percentage?: number;
            /** @description the multivariate flag's variants, replacing the ones it has */
            variants?: {
                key: string;
                name?: string;
                rollout_percentage: number;
            }[];
        };
        /** ScheduledChangesCreated */
        ScheduledChangesCreated: {
            results: components["schemas"]["ScheduledChange"][];
        };
        /** SessionRecording */
        SessionRecording: {
            /** @description the session id (`$session_id`) */
            id: string;
            /** @description the distinct id of its first batch */
            distinct_id: string;
            person: components["schemas"]["SessionRecordingPerson"] | null;
            /** Format: date-time */
            start_time: string;
            /** Format: date-time */
            end_time: string;
            /** @description seconds from the first to the last recorded event */
            duration: number;
            /** @description seconds with user interaction (gaps up to 5 s) */
            active_seconds: number;
            /** @description clicks and double clicks */
            click_count: number;
            /** @description inputs typed */
            keypress_count: number;
            /** @description console logs recorded */
            console_log_count: number;
            /** @description console warnings recorded */
            console_warn_count: number;
            /** @description console errors recorded */
            console_error_count: number;
            /** @description `$exception` events of the session */
            exception_count: number;
            /** @description the first URL recorded */
            start_url: string | null;
            /** @description rrweb events stored */
            event_count: number;
            /** @description bytes its stored blocks take */
            size_bytes: number;
            /** @description a batch arrived in the last 5 minutes */
            ongoing: boolean;
        };
        /** SessionRecordingDetail */
        SessionRecordingDetail: {
            /** @description the session id (`$session_id`) */
            id: string;
            /** @description the distinct id of its first batch */
            distinct_id: string;
            person: components["schemas"]["SessionRecordingPerson"] | null;
            /** Format: date-time */
            start_time: string;
            /** Format: date-time */
            end_time: string;
            /** @description seconds from the first to the last recorded event */
            duration: number;
            /** @description seconds with user interaction (gaps up to 5 s) */
            active_seconds: number;
            /** @description clicks and double clicks */
            click_count: number;
            /** @description inputs typed */
            keypress_count: number;
            /** @description console logs recorded */
            console_log_count: number;
            /** @description console warnings recorded */
            console_warn_count: number;
            /** @description console errors recorded */
            console_error_count: number;
            /** @description `$exception` events of the session */
            exception_count: number;
            /** @description the first URL recorded */
            start_url: string | null;
            /** @description rrweb events stored */
            event_count: number;
            /** @description bytes its stored blocks take */
            size_bytes: number;
            /** @description a batch arrived in the last 5 minutes */
            ongoing: boolean;
            /** @description URLs visited (up to 100) */
            urls: string[];
            /** @description rrweb events skipped at ingest (a compressed field that could not be read) */
            skipped_count: number;
            /** @description stored blocks */
            block_count: number;
        };
        /** SessionRecordingEvent */
        SessionRecordingEvent: {
            uuid: string;
            event: string;
            /** Format: date-time */
            timestamp: string;
            /** @description only what a timeline shows */
            properties: {
                $current_url?: unknown;
                $pathname?: unknown;
                $event_type?: unknown;
                $el_text?: unknown;
                $exception_types?: unknown;
                $exception_message?: unknown;
            };
        };
        /** SessionRecordingEvents */
        SessionRecordingEvents: {
            /** @description in time order, at most 2000 */
            results: components["schemas"]["SessionRecordingEvent"][];
        };
        /** SessionRecordingLinkedFlag */
        SessionRecordingLinkedFlag: {
            /** @description a live flag of the project's */
            key: string;
            /** @description record only when the flag gives this variant; null: whenever it is on */
            variant: string | null;
        };
        /** SessionRecordingList */
        SessionRecordingList: {
            count: number;
            next: string | null;
            previous: string | null;
            results: components["schemas"]["SessionRecording"][];
        };
        /** SessionRecordingPerson */
        SessionRecordingPerson: {
            /** @description the person's id, as the persons API names them */
            id: string;
            /** @description their email or name property */
            name: string | null;
            /** @description some of their distinct ids */
            distinct_ids: string[];
        };
        /** SessionRecordingSettings */
        SessionRecordingSettings: {
            /** @description record sessions (off by default) */
            enabled: boolean;
            /** @description share of sessions recorded, 0 to 1 (sent to clients with two decimals) */
            sample_rate: number;
            /** @description nothing is sent until a session lasts this long */
            minimum_duration_ms: number;
            linked_flag: components["schemas"]["SessionRecordingLinkedFlag"] | null;
            /** @description mask every text of the page (inputs and passwords are always masked) */
            mask_all_text: boolean;
            /** @description CSS selector of elements whose text is masked */
            mask_text_selector: string | null;
            /** @description CSS selector of elements not recorded (a placeholder of their size) */
            block_selector: string | null;
            /** @description record console logs */
            console_logs: boolean;
            /** @description record network timings (no payloads) */
            network_timings: boolean;
            /** @description record canvas elements */
            record_canvas: boolean;
            url_triggers: components["schemas"]["SessionRecordingUrlTrigger"][];
            url_blocklist: components["schemas"]["SessionRecordingUrlTrigger"][];
            event_triggers: string[];
            /** @description recordings are deleted this many days after they end (REPLAY_RETENTION_DAYS; read-only) */
            retention_days: number;
            storage: components["schemas"]["SessionRecordingStorage"];
        };
        /**
         * SessionRecordingSnapshots
         * @description plain rrweb events
         */
        SessionRecordingSnapshots: {
            [key: string]: unknown;
        }[];
        /**
         * SessionRecordingStorage
         * @description read-only
         */
        SessionRecordingStorage: {
            /** @description bytes the stored recordings take */
            bytes: number;
            /** @description recordings stored */
            sessions: number;
        };
        /** SessionRecordingUrlTrigger */
        SessionRecordingUrlTrigger: {
            /** @description a regular expression (RE2) searched in the page URL */
            url: string;
            /** @enum {string} */
            matching: "regex";
        };
        /** SignedInUser */
        SignedInUser: {
            id: number;
            email: string;
            name: string;
            role: components["schemas"]["Role"];
            /** @description the scopes of the user's role: what a session may do, and the most a key of the user may have (`*`: everything) */
            scopes: string[];
            organization: {
                id: number;
                name: string;
            };
            /** @description send it as X-CSRF-Token on POST, PATCH, PUT and DELETE requests made with the session; null for a personal API key */
            csrf_token: string | null;
        };
        /**
         * Stage
         * @enum {unknown}
         */
        Stage: "draft" | "concept" | "alpha" | "beta" | "general-availability" | "archived";
        /** Survey */
        Survey: {
            /** Format: uuid */
            id: string;
            name: string;
            description: string;
            type: components["schemas"]["SurveyType"];
            questions: components["schemas"]["SurveyQuestion"][];
            appearance: {
                [key: string]: unknown;
            } | null;
            conditions: {
                [key: string]: unknown;
            } | null;
            linked_flag_key: string | null;
            targeting_flag_key: string;
            internal_targeting_flag_key: string;
            /** Format: date-time */
            start_date: string | null;
            /** Format: date-time */
            end_date: string | null;
            schedule: components["schemas"]["SurveySchedule"];
            current_iteration: number | null;
            /** Format: date-time */
            current_iteration_start_date: string | null;
            enable_partial_responses: boolean;
            targeting_flag_filters: {
                [key: string]: unknown;
            } | null;
            targeting_flag: components["schemas"]["SurveyFlag"];
            internal_targeting_flag: components["schemas"]["SurveyFlag"];
            linked_early_access_feature_id: string | null;
            responses_limit: number | null;
            iteration_count: number | null;
            iteration_frequency_days: number | null;
            archived: boolean;
            status: components["schemas"]["SurveyStatus"];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            created_by: components["schemas"]["SurveyCreator"] | null;
        };
        /**
         * SurveyAnswersPage
         * @description open questions, and choice questions with an open choice (answers holding a text of their own): newest first
         */
        SurveyAnswersPage: {
            results: {
                /** @description as stored: a text (cut at 5000 characters), a number, or a list of choices */
                value: string | number | boolean | string[];
                distinct_id: string;
                /** @description the person’s id (uuid), null when the distinct id has none */
                person_id: string | null;
                /** @description the response’s last event */
                timestamp: string;
                submission_id: string;
            }[];
            count: number;
            /** @description the `answers_offset` of the next page; null at the end */
            next_offset: number | null;
        };
        /** SurveyCounts */
        SurveyCounts: {
            /** @description `survey shown` events */
            shown: number;
            /** @description `survey dismissed` events */
            dismissed: number;
            /** @description completed responses (one per submission, its partial answers merged) */
            sent: number;
            /** @description `survey abandoned` events */
            abandoned: number;
            /** @description responses begun and not completed */
            partial: number;
        };
        /** SurveyCreator */
        SurveyCreator: {
            id: number;
            name: string;
            email: string;
        };
        /**
         * SurveyFlag
         * @description a flag the service keeps for the survey (not in the flags list, not editable there)
         */
        SurveyFlag: {
            id: number;
            key: string;
            active: boolean;
            filters: {
                [key: string]: unknown;
            };
        };
        /**
         * SurveyNps
         * @description rating with scale 10
         */
        SurveyNps: {
            /** @description 9–10 */
            promoters: number;
            /** @description 7–8 */
            passives: number;
            /** @description 0–6 */
            detractors: number;
            /** @description % promoters − % detractors, −100 to 100; null without answers */
            score: number | null;
        };
        /** SurveyQuestion */
        SurveyQuestion: {
            /** @enum {unknown} */
            type: "open" | "link" | "rating" | "single_choice" | "multiple_choice";
            id: string;
            question: string;
            description: string;
            /** @enum {unknown} */
            descriptionContentType: "html" | "text";
            optional: boolean;
            buttonText?: string;
            branching?: {
                /** @enum {unknown} */
                type: "next_question" | "end" | "specific_question" | "response_based";
                index?: number;
                responseValues?: {
                    [key: string]: unknown;
                };
            };
            /** @description link questions: an http(s) or mailto URL */
            link?: string | null;
            /**
             * @description rating questions: number (scale 5, 7, 10) or emoji (scale 2, 3, 5)
             * @enum {unknown}
             */
            display?: "number" | "emoji";
            /** @description rating questions: 2, 3, 5, 7 or 10 (10 is 0–10, NPS) */
            scale?: number;
            lowerBoundLabel?: string;
            upperBoundLabel?: string;
            skipSubmitButton?: boolean;
            choices?: string[];
            /** @description choice questions: the last choice takes free text */
            hasOpenChoice?: boolean;
            shuffleOptions?: boolean;
            translations?: {
                [key: string]: unknown;
            };
            validation?: {
                [key: string]: unknown;
            }[];
        };
        /** SurveyQuestionResults */
        SurveyQuestionResults: {
            id: string;
            /** @description place in the survey’s questions */
            index: number;
            type: string;
            question: string;
            /** @description responses that answer it */
            responses: number;
            /** @description single and multiple choice: every choice (zeros too), then answers outside them (an open choice's texts, the 100 most frequent) under their text; a multiple choice answer counts once per choice */
            choices?: {
                value: string;
                count: number;
            }[];
            /** @description rating: every value of the scale (0–10 for 10, else 1 to the scale), zeros too */
            ratings?: {
                value: number;
                count: number;
            }[];
            nps?: components["schemas"]["SurveyNps"];
            answers?: components["schemas"]["SurveyAnswersPage"];
        };
        /** SurveyResults */
        SurveyResults: {
            survey_id: string;
            counts: components["schemas"]["SurveyCounts"];
            /** @description people shown the survey who completed a response, over people shown it; null when nobody was shown it */
            response_rate: number | null;
            /** @description responses stored while the survey did not run (unknown, not launched, ended or stopped): counted above too */
            late_responses: number;
            /** @description per UTC day: events, and completed responses by their last event */
            by_day: components["schemas"]["SurveyResultsDay"][];
            /** @description in the survey’s order; none for a survey that does not exist */
            questions: components["schemas"]["SurveyQuestionResults"][];
        };
        /** SurveyResultsDay */
        SurveyResultsDay: {
            /** @description UTC day, `YYYY-MM-DD` */
            day: string;
            shown: number;
            dismissed: number;
            sent: number;
            abandoned: number;
        };
        /**
         * SurveySchedule
         * @enum {unknown}
         */
        SurveySchedule: "once" | "recurring" | "always";
        /**
         * SurveyStatus
         * @enum {unknown}
         */
        SurveyStatus: "draft" | "running" | "stopped";
        /**
         * SurveyType
         * @enum {unknown}
         */
        SurveyType: "popover" | "widget" | "api" | "external_survey";
        /** VariantResult */
        VariantResult: {
            key: string;
            /** @description exposed people (those who saw several variants are left out) */
            exposures: number;
            /** @description conversion metric: exposed people who did the event within the window after exposure */
            conversions?: number;
            /** @description mean metric: Σ over exposed people of their count (or property sum) after exposure */
            sum?: number;
            mean?: number;
            /** @description per-person variance */
            variance?: number;
            /** @description conversions/exposures, or the mean */
            rate: number;
            /** @description interval of the rate: credible (bayesian), confidence or always-valid */
            credible_interval: [
                number,
                number
            ];
            /** @description bayesian only */
            probability_to_be_best: number | null;
            /** @description relative to control, (m_B − m_A)/|m_A|; null for control and when the control’s mean is 0 */
            lift: {
                estimate: number;
                /** @description lower and upper end, null where unbounded (too little data in control); bayesian: quantiles of the lift’s posterior (the one of the chance to be best); frequentist: Fieller’s interval of the ratio */
                interval: (number | null)[];
            } | null;
            /** @description frequentist only: the test of the difference against control */
            p_value: number | null;
        };
        /** Webhook */
        Webhook: {
            /** Format: uuid */
            id: string;
            /** @description where deliveries are POSTed (http or https) */
            url: string;
            /** @description what the webhook is sent for, at least one of: feature_flag.changed, early_access.enrolled, early_access.unenrolled, early_access.stage_changed, error.new_issue, error.regressed */
            kinds: components["schemas"]["WebhookKind"][];
            /** @description false: nothing is enqueued for it, and pending deliveries fail */
            enabled: boolean;
            /** @description the start and end of the signing secret (the secret is shown once, on create) */
            secret_mask: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** WebhookDelivery */
        WebhookDelivery: {
            /**
             * Format: uuid
             * @description also the `webhook-id` header and the body’s `id`, the same on every attempt
             */
            id: string;
            kind: string;
            /** @description pending, succeeded or failed */
            status: string;
            attempts: number;
            /** @description the last attempt's HTTP status; null when there was no response */
            last_response_code: number | null;
            /** @description why the last attempt failed (no response, or the status and the body's start) */
            last_error: string | null;
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description when it is tried next (pending only)
             */
            next_attempt_at: string | null;
            /** Format: date-time */
            delivered_at: string | null;
            payload: {
                [key: string]: unknown;
            };
        };
        /**
         * WebhookKind
         * @enum {string}
         */
        WebhookKind: "feature_flag.changed" | "early_access.enrolled" | "early_access.unenrolled" | "early_access.stage_changed" | "error.new_issue" | "error.regressed";
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    activity_log_list: {
        parameters: {
            query?: {
                /** @description results per page (default 100, at most 1000) */
                limit?: string;
                /** @description index of the first result (default 0) */
                offset?: string;
                /** @description only entries of this kind of item */
                scope?: string;
                /** @description only entries of this item */
                item_id?: string;
                /** @description only changes made by this user: in the web app or with one of the user's keys */
                user_id?: number;
                /** @description only changes made in the web app (user), with a personal API key, or by the command line */
                actor_type?: "user" | "personal_api_key" | "command_line";
            };
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        count: number;
                        next: string | null;
                        previous: string | null;
                        results: components["schemas"]["ActivityEntry"][];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    organization_activity_log_list: {
        parameters: {
            query?: {
                /** @description results per page (default 100, at most 1000) */
                limit?: string;
                /** @description index of the first result (default 0) */
                offset?: string;
                /** @description only entries of this kind of item */
                scope?: string;
                /** @description only entries of this item */
                item_id?: string;
                /** @description only changes made by this user: in the web app or with one of the user's keys */
                user_id?: number;
                /** @description only changes made in the web app (user), with a personal API key, or by the command line */
                actor_type?: "user" | "personal_api_key" | "command_line";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        count: number;
                        next: string | null;
                        previous: string | null;
                        results: components["schemas"]["ActivityEntry"][];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    webhooks_list: {
        parameters: {
            query?: {
                /** @description results per page (default 100, at most 1000) */
                limit?: string;
                /** @description index of the first result (default 0) */
                offset?: string;
            };
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        count: number;
                        next: string | null;
                        previous: string | null;
                        results: components["schemas"]["Webhook"][];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    webhooks_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description http or https; loopback and private addresses are refused unless WEBHOOK_ALLOW_PRIVATE=true */
                    url: string;
                    /** @description what the webhook is sent for, at least one of: feature_flag.changed, early_access.enrolled, early_access.unenrolled, early_access.stage_changed, error.new_issue, error.regressed */
                    kinds: string[];
                    enabled?: boolean;
                    /** @description `whsec_` and the base64 of 24 to 64 random bytes; one is made when not given */
                    secret?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedWebhook"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    webhooks_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    webhooks_destroy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted; empty body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    webhooks_partial_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description http or https; loopback and private addresses are refused unless WEBHOOK_ALLOW_PRIVATE=true */
                    url?: string;
                    /** @description what the webhook is sent for, at least one of: feature_flag.changed, early_access.enrolled, early_access.unenrolled, early_access.stage_changed, error.new_issue, error.regressed */
                    kinds?: string[];
                    enabled?: boolean;
                    /** @description `whsec_` and the base64 of 24 to 64 random bytes; one is made when not given */
                    secret?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    webhooks_deliveries_list: {
        parameters: {
            query?: {
                /** @description results per page (default 100, at most 1000) */
                limit?: string;
                /** @description index of the first result (default 0) */
                offset?: string;
                /** @description only deliveries in this status: pending, succeeded or failed */
                status?: string;
            };
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        count: number;
                        next: string | null;
                        previous: string | null;
                        results: components["schemas"]["WebhookDelivery"][];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    projects_list: {
        parameters: {
            query?: {
                /** @description results per page (default 100, at most 1000) */
                limit?: string;
                /** @description index of the first result (default 0) */
                offset?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        count: number;
                        next: string | null;
                        previous: string | null;
                        results: components["schemas"]["Project"][];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    projects_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    projects_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    projects_partial_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    personal_api_keys_list: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        results: components["schemas"]["PersonalApiKey"][];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    personal_api_keys_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    label: string;
                    /** @description `*` or `<object>:<read|write>`, objects: early_access_feature, feature_flag, project, event, person, webhook, organization_member, personal_api_key, activity_log, experiment, error_tracking, survey, session_recording, llm, cohort; at most the scopes of your role */
                    scopes: string[];
                    /** @description limit the key to these projects (it then has no organization-level access); null or absent: every project */
                    project_ids?: number[] | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedPersonalApiKey"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    personal_api_keys_destroy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description revoked: requests with it get 401 */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setup_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        needs_first_account: boolean;
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    signup_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description stored in lower case */
                    email: string;
                    name: string;
                    /** @description at least 8 characters, not blank, not one of the most common passwords */
                    password: string;
                    organization_name?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedInUser"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    login_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedInUser"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    logout_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description logged out; the cookie is cleared */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    users__me_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedInUser"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    users__me_password_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    current_password: string;
                    /** @description at least 8 characters, not blank, not one of the most common passwords */
                    password: string;
                };
            };
        };
        responses: {
            /** @description changed; this session goes on, the others ended */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    organization_members_list: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        results: components["schemas"]["Member"][];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    organization_members_destroy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description removed: sessions ended, personal API keys revoked */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    organization_members_partial_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Role
                     * @description viewer: read; member: read and change flags, early access features and the rest; admin: also members, invites, API keys, project settings, webhooks; owner: everything
                     */
                    role: "viewer" | "member" | "admin" | "owner";
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    organization_members_password_reset_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PasswordReset"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    organization_invites_list: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        results: components["schemas"]["Invite"][];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    organization_invites_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Role
                     * @description viewer: read; member: read and change flags, early access features and the rest; admin: also members, invites, API keys, project settings, webhooks; owner: everything
                     */
                    role: "viewer" | "member" | "admin" | "owner";
                    /** @description stored in lower case */
                    email?: string | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedInvite"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    organization_invites_destroy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description withdrawn; its link no longer works */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    invites_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InviteInfo"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    invites_accept_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description stored in lower case */
                    email: string;
                    name: string;
                    /** @description at least 8 characters, not blank, not one of the most common passwords */
                    password: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedInUser"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    password_resets_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PasswordResetInfo"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    password_resets_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description at least 8 characters, not blank, not one of the most common passwords */
                    password: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedInUser"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    feature_flags_list: {
        parameters: {
            query?: {
                /** @description results per page (default 100, at most 1000) */
                limit?: string;
                /** @description index of the first result (default 0) */
                offset?: string;
                /** @description flags whose key or name contains this, ignoring case */
                search?: string;
                /** @description true: only active flags; false: only inactive ones */
                active?: string;
                /** @description multivariant: flags with variants; boolean: flags without */
                type?: "boolean" | "multivariant";
                /** @description true: only flags an early access feature uses; false: only the others */
                has_early_access?: boolean;
            };
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        count: number;
                        next: string | null;
                        previous: string | null;
                        results: components["schemas"]["FeatureFlag"][];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    feature_flags_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    key: string;
                    name?: string;
                    filters?: {
                        [key: string]: unknown;
                    };
                    active?: boolean;
                    ensure_experience_continuity?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FeatureFlag"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    feature_flags_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FeatureFlagDetail"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    feature_flags_partial_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    key?: string;
                    name?: string;
                    filters?: {
                        [key: string]: unknown;
                    };
                    active?: boolean;
                    ensure_experience_continuity?: boolean;
                    deleted?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FeatureFlag"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    feature_flags_scheduled_changes_list: {
        parameters: {
            query?: {
                /** @description results per page (default 100, at most 1000) */
                limit?: string;
                /** @description index of the first result (default 0) */
                offset?: string;
            };
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        count: number;
                        next: string | null;
                        previous: string | null;
                        results: components["schemas"]["ScheduledChange"][];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    feature_flags_scheduled_changes_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        /** @description one change (scheduled_at and payload) or a ramp (ramp alone) */
        requestBody: {
            content: {
                "application/json": {
                    /** @description a date and time in the future, ISO 8601 (e.g. 2030-01-31T09:00:00Z) */
                    scheduled_at?: string;
                    /** ScheduledChangePayload */
                    payload?: {
                        /** @description turn the flag on or off */
                        active?: boolean;
                        /** @description the rollout of every condition set of the flag */
                        rollout_percentage?: number;
                        /** @description the multivariate flag's variants, replacing the ones it has */
                        variants?: {
                            key: string;
                            name?: string;
                            rollout_percentage: number;
                        }[];
                    };
                    /** @description rollout percentages at successive times (e.g. 10 %, then 50 %, then 100 %), each a change of its own */
                    ramp?: {
                        /** @description a date and time in the future, ISO 8601 (e.g. 2030-01-31T09:00:00Z) */
                        scheduled_at: string;
                        rollout_percentage: number;
                    }[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduledChangesCreated"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    feature_flags_scheduled_changes_destroy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                id: string;
                change_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description cancelled; empty body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    feature_flags_scheduled_changes_partial_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                id: string;
                change_id: string;
            };
            cookie?: never;
        };
        /** @description a new time and/or a new payload (replacing the one it has) */
        requestBody: {
            content: {
                "application/json": {
                    /** @description a date and time in the future, ISO 8601 (e.g. 2030-01-31T09:00:00Z) */
                    scheduled_at?: string;
                    /** ScheduledChangePayload */
                    payload?: {
                        /** @description turn the flag on or off */
                        active?: boolean;
                        /** @description the rollout of every condition set of the flag */
                        rollout_percentage?: number;
                        /** @description the multivariate flag's variants, replacing the ones it has */
                        variants?: {
                            key: string;
                            name?: string;
                            rollout_percentage: number;
                        }[];
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduledChange"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    e_retrieve: {
        parameters: {
            query?: {
                /** @description the project token (or `api_key`; also accepted in the body) */
                token?: string;
                /** @description `gzip`, `gzip-js` or `base64`; gzip is also detected by its magic bytes */
                compression?: string;
                /** @description `1`: answer 204 instead of 200 */
                beacon?: string;
                /** @description the events, base64 (or base64 of gzip) */
                data?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {number} */
                        status: 1;
                        /** @description events not stored, each with why (`attr`: `batch__<index>`); only when there are some */
                        refused?: components["schemas"]["Error"][];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    e_create: {
        parameters: {
            query?: {
                /** @description the project token (or `api_key`; also accepted in the body) */
                token?: string;
                /** @description `gzip`, `gzip-js` or `base64`; gzip is also detected by its magic bytes */
                compression?: string;
                /** @description `1`: answer 204 instead of 200 */
                beacon?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description one event, a list of events, or `{api_key, batch: [...]}`; JSON, gzip, base64 or a `data=` form, in a `Content-Encoding` (gzip, deflate, deflate-raw, br) or none */
        requestBody: {
            content: {
                "application/json": unknown;
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {number} */
                        status: 1;
                        /** @description events not stored, each with why (`attr`: `batch__<index>`); only when there are some */
                        refused?: components["schemas"]["Error"][];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    i_v0_e_retrieve: {
        parameters: {
            query?: {
                /** @description the project token (or `api_key`; also accepted in the body) */
                token?: string;
                /** @description `gzip`, `gzip-js` or `base64`; gzip is also detected by its magic bytes */
                compression?: string;
                /** @description `1`: answer 204 instead of 200 */
                beacon?: string;
                /** @description the events, base64 (or base64 of gzip) */
                data?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {number} */
                        status: 1;
                        /** @description events not stored, each with why (`attr`: `batch__<index>`); only when there are some */
                        refused?: components["schemas"]["Error"][];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    i_v0_e_create: {
        parameters: {
            query?: {
                /** @description the project token (or `api_key`; also accepted in the body) */
                token?: string;
                /** @description `gzip`, `gzip-js` or `base64`; gzip is also detected by its magic bytes */
                compression?: string;
                /** @description `1`: answer 204 instead of 200 */
                beacon?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description one event, a list of events, or `{api_key, batch: [...]}`; JSON, gzip, base64 or a `data=` form, in a `Content-Encoding` (gzip, deflate, deflate-raw, br) or none */
        requestBody: {
            content: {
                "application/json": unknown;
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {number} */
                        status: 1;
                        /** @description events not stored, each with why (`attr`: `batch__<index>`); only when there are some */
                        refused?: components["schemas"]["Error"][];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    capture_retrieve: {
        parameters: {
            query?: {
                /** @description the project token (or `api_key`; also accepted in the body) */
                token?: string;
                /** @description `gzip`, `gzip-js` or `base64`; gzip is also detected by its magic bytes */
                compression?: string;
                /** @description `1`: answer 204 instead of 200 */
                beacon?: string;
                /** @description the events, base64 (or base64 of gzip) */
                data?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {number} */
                        status: 1;
                        /** @description events not stored, each with why (`attr`: `batch__<index>`); only when there are some */
                        refused?: components["schemas"]["Error"][];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    capture_create: {
        parameters: {
            query?: {
                /** @description the project token (or `api_key`; also accepted in the body) */
                token?: string;
                /** @description `gzip`, `gzip-js` or `base64`; gzip is also detected by its magic bytes */
                compression?: string;
                /** @description `1`: answer 204 instead of 200 */
                beacon?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description one event, a list of events, or `{api_key, batch: [...]}`; JSON, gzip, base64 or a `data=` form, in a `Content-Encoding` (gzip, deflate, deflate-raw, br) or none */
        requestBody: {
            content: {
                "application/json": unknown;
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {number} */
                        status: 1;
                        /** @description events not stored, each with why (`attr`: `batch__<index>`); only when there are some */
                        refused?: components["schemas"]["Error"][];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    batch_retrieve: {
        parameters: {
            query?: {
                /** @description the project token (or `api_key`; also accepted in the body) */
                token?: string;
                /** @description `gzip`, `gzip-js` or `base64`; gzip is also detected by its magic bytes */
                compression?: string;
                /** @description `1`: answer 204 instead of 200 */
                beacon?: string;
                /** @description the events, base64 (or base64 of gzip) */
                data?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {number} */
                        status: 1;
                        /** @description events not stored, each with why (`attr`: `batch__<index>`); only when there are some */
                        refused?: components["schemas"]["Error"][];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    batch_create: {
        parameters: {
            query?: {
                /** @description the project token (or `api_key`; also accepted in the body) */
                token?: string;
                /** @description `gzip`, `gzip-js` or `base64`; gzip is also detected by its magic bytes */
                compression?: string;
                /** @description `1`: answer 204 instead of 200 */
                beacon?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description one event, a list of events, or `{api_key, batch: [...]}`; JSON, gzip, base64 or a `data=` form, in a `Content-Encoding` (gzip, deflate, deflate-raw, br) or none */
        requestBody: {
            content: {
                "application/json": unknown;
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {number} */
                        status: 1;
                        /** @description events not stored, each with why (`attr`: `batch__<index>`); only when there are some */
                        refused?: components["schemas"]["Error"][];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    i_v0_ai_batch_retrieve: {
        parameters: {
            query?: {
                /** @description the project token (or `api_key`; also accepted in the body) */
                token?: string;
                /** @description `gzip`, `gzip-js` or `base64`; gzip is also detected by its magic bytes */
                compression?: string;
                /** @description `1`: answer 204 instead of 200 */
                beacon?: string;
                /** @description the events, base64 (or base64 of gzip) */
                data?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {number} */
                        status: 1;
                        /** @description events not stored, each with why (`attr`: `batch__<index>`); only when there are some */
                        refused?: components["schemas"]["Error"][];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    i_v0_ai_batch_create: {
        parameters: {
            query?: {
                /** @description the project token (or `api_key`; also accepted in the body) */
                token?: string;
                /** @description `gzip`, `gzip-js` or `base64`; gzip is also detected by its magic bytes */
                compression?: string;
                /** @description `1`: answer 204 instead of 200 */
                beacon?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description one event, a list of events, or `{api_key, batch: [...]}`; JSON, gzip, base64 or a `data=` form, in a `Content-Encoding` (gzip, deflate, deflate-raw, br) or none */
        requestBody: {
            content: {
                "application/json": unknown;
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {number} */
                        status: 1;
                        /** @description events not stored, each with why (`attr`: `batch__<index>`); only when there are some */
                        refused?: components["schemas"]["Error"][];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    persons_list: {
        parameters: {
            query?: {
                /** @description results per page (default 100, at most 1000) */
                limit?: string;
                /** @description index of the first result (default 0) */
                offset?: string;
                /** @description only the person behind this distinct id */
                distinct_id?: string;
                /** @description only persons with a distinct id or a property value (not a key) containing this, ignoring case */
                search?: string;
            };
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        count: number;
                        next: string | null;
                        previous: string | null;
                        results: components["schemas"]["Person"][];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    person_property_names_list: {
        parameters: {
            query?: {
                /** @description only names containing this, ignoring case */
                search?: string;
            };
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description the top-level property names of the project's 10,000 newest persons, sorted, at most 1000 */
                        results: string[];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    group_types_list: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description by index; at most 5, made by the first events of each type */
                        results: components["schemas"]["GroupType"][];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    events_list: {
        parameters: {
            query?: {
                /** @description results per page (default 100, at most 1000) */
                limit?: string;
                /** @description index of the first result (default 0) */
                offset?: string;
                /** @description only events with this name */
                event?: string;
                /** @description only events of this distinct id */
                distinct_id?: string;
                /** @description only events after this ISO 8601 time (exclusive) */
                after?: string;
                /** @description only events before this ISO 8601 time (exclusive) */
                before?: string;
                /** @description only events with these property values: a JSON list `[{"key": "$feature_flag", "value": "my-flag"}]`, exact equality compared as text (`true` matches `"true"`, `3` matches `"3"`), ANDed (a list as `value` matches any of its values; `null` matches an absent property) */
                properties?: string;
            };
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        count: number;
                        next: string | null;
                        previous: string | null;
                        results: components["schemas"]["Event"][];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    event_counts_retrieve: {
        parameters: {
            query: {
                /** @description the event counted (exact name) */
                event: string;
                /** @description from this ISO 8601 date (UTC midnight) or date-time (inclusive) */
                after: string;
                /** @description until this ISO 8601 date or date-time (exclusive); default now */
                before?: string;
                /** @description buckets: UTC days (default; at most 366) or hours (at most 31 days of them) */
                interval?: "day" | "hour";
                /** @description one series per value of this event property, e.g. $feature_flag_response */
                breakdown?: string;
                /** @description only events with these property values: a JSON list `[{"key": "$feature_flag", "value": "my-flag"}]`, exact equality compared as text (`true` matches `"true"`, `3` matches `"3"`), ANDed (a list as `value` matches any of its values; `null` matches an absent property) */
                properties?: string;
            };
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventCounts"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    event_names_list: {
        parameters: {
            query?: {
                /** @description only names containing this, ignoring case */
                search?: string;
            };
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventNames"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    early_access_feature_list: {
        parameters: {
            query?: {
                /** @description results per page (default 100, at most 1000) */
                limit?: string;
                /** @description index of the first result (default 0) */
                offset?: string;
            };
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        count: number;
                        next: string | null;
                        previous: string | null;
                        results: components["schemas"]["EarlyAccessFeature"][];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    early_access_feature_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @enum {unknown} */
                    stage: "draft" | "concept" | "alpha" | "beta" | "general-availability" | "archived";
                    description?: string;
                    documentation_url?: string;
                    /** @description a JSON object for the SDKs (at most 64 KB as JSON); null clears it */
                    payload?: {
                        [key: string]: unknown;
                    } | null;
                    /** @description 0 or null: a new flag named after the feature */
                    feature_flag_id?: number | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedEarlyAccessFeature"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    early_access_feature_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EarlyAccessFeature"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    early_access_feature_destroy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted; empty body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    early_access_feature_partial_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    description?: string;
                    /** @enum {unknown} */
                    stage?: "draft" | "concept" | "alpha" | "beta" | "general-availability" | "archived";
                    documentation_url?: string;
                    /** @description a JSON object for the SDKs (at most 64 KB as JSON); null clears it */
                    payload?: {
                        [key: string]: unknown;
                    } | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EarlyAccessFeature"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    early_access_feature_enrollments_list: {
        parameters: {
            query?: {
                /** @description results per page (default 100, at most 1000) */
                limit?: string;
                /** @description index of the first result (default 0) */
                offset?: string;
                /** @description only those opted in (true) or out (false) */
                enrolled?: boolean;
            };
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnrollmentPage"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    early_access_feature_enrollments_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description a person to opt in or out (for a person-based flag) */
                    distinct_id?: string;
                    /** @description a group's type, one of the project's (for a group-based flag) */
                    group_type?: string;
                    /** @description the group's key */
                    group_key?: string;
                    /** @description opt in (true) or out (false) */
                    enrolled: boolean;
                };
            };
        };
        responses: {
            /** @description an enrollment changed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description the person's distinct id; null for a group */
                        distinct_id: string | null;
                        /**
                         * Format: uuid
                         * @description the person's uuid; null for a group
                         */
                        person_id: string | null;
                        /** @description null for a person */
                        group_type: string | null;
                        /** @description null for a person */
                        group_key: string | null;
                        /** @description opted in (true) or out (false) */
                        enrolled: boolean;
                        /** @description the feature's stage when they opted in or out */
                        stage: string;
                        /**
                         * Format: date-time
                         * @description when they opted in or out
                         */
                        updated_at: string;
                    };
                };
            };
            /** @description a first enrollment */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description the person's distinct id; null for a group */
                        distinct_id: string | null;
                        /**
                         * Format: uuid
                         * @description the person's uuid; null for a group
                         */
                        person_id: string | null;
                        /** @description null for a person */
                        group_type: string | null;
                        /** @description null for a person */
                        group_key: string | null;
                        /** @description opted in (true) or out (false) */
                        enrolled: boolean;
                        /** @description the feature's stage when they opted in or out */
                        stage: string;
                        /**
                         * Format: date-time
                         * @description when they opted in or out
                         */
                        updated_at: string;
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    early_access_feature_enrollments_per_day_retrieve: {
        parameters: {
            query?: {
                /** @description how many days back, today included */
                days?: number;
            };
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description each enrollment's latest choice, by its day: what the feature's counts count, so they add up to them */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnrollmentsPerDay"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    early_access_features_retrieve: {
        parameters: {
            query?: {
                token?: string;
                api_key?: string;
                stage?: string[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        earlyAccessFeatures: {
                            id: string;
                            name: string;
                            description: string;
                            stage: string;
                            documentationUrl: string;
                            flagKey: string | null;
                            payload: {
                                [key: string]: unknown;
                            } | null;
                        }[];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    experiments_list: {
        parameters: {
            query?: {
                /** @description results per page (default 100, at most 1000) */
                limit?: string;
                /** @description index of the first result (default 0) */
                offset?: string;
            };
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        count: number;
                        next: string | null;
                        previous: string | null;
                        results: components["schemas"]["Experiment"][];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    experiments_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @description a new flag is made with this key (off until launch); an existing multivariate flag with a `control` variant is used instead, left as it is until launch */
                    feature_flag_key: string;
                    description?: string;
                    /** @description default: an existing flag’s variants, or control/test 50/50; the flag takes them at launch */
                    variants?: {
                        /** @description letters, numbers, hyphens and underscores; one variant is `control` */
                        key: string;
                        /** @description share of the flag’s audience; the variants sum to 100 */
                        rollout_percentage: number;
                    }[];
                    metrics?: {
                        /**
                         * @description conversion: the share of exposed people who did the event; mean: the event per exposed person
                         * @enum {unknown}
                         */
                        kind: "conversion" | "mean";
                        /** @description the event name (one with no events yet is allowed) */
                        event: string;
                        /** @description event properties that must equal these values (all of them) */
                        properties?: {
                            key: string;
                            value: string | number | boolean;
                        }[];
                        /** @description conversion only: days after exposure that count (default 14) */
                        window_days?: number;
                        /** @description mean only: the numeric event property to sum; absent: count the events */
                        property?: string;
                        name?: string;
                    }[];
                    /** Format: date-time */
                    start_date?: string | null;
                    /** Format: date-time */
                    end_date?: string | null;
                    /**
                     * @description draft (default) or running
                     * @enum {unknown}
                     */
                    status?: "draft" | "running";
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Experiment"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    experiments_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Experiment"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    experiments_destroy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted; empty body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    experiments_partial_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    description?: string;
                    /** @description at least two, one of them `control`, summing to 100 */
                    variants?: {
                        /** @description letters, numbers, hyphens and underscores; one variant is `control` */
                        key: string;
                        /** @description share of the flag’s audience; the variants sum to 100 */
                        rollout_percentage: number;
                    }[];
                    metrics?: {
                        /**
                         * @description conversion: the share of exposed people who did the event; mean: the event per exposed person
                         * @enum {unknown}
                         */
                        kind: "conversion" | "mean";
                        /** @description the event name (one with no events yet is allowed) */
                        event: string;
                        /** @description event properties that must equal these values (all of them) */
                        properties?: {
                            key: string;
                            value: string | number | boolean;
                        }[];
                        /** @description conversion only: days after exposure that count (default 14) */
                        window_days?: number;
                        /** @description mean only: the numeric event property to sum; absent: count the events */
                        property?: string;
                        name?: string;
                    }[];
                    /** Format: date-time */
                    start_date?: string | null;
                    /** Format: date-time */
                    end_date?: string | null;
                    /**
                     * @description draft → running → complete; the flag is left as it is while draft, and launched (split, on) at running
                     * @enum {unknown}
                     */
                    status?: "draft" | "running" | "complete";
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Experiment"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    experiments_ship_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the variant everyone gets from now on */
                    variant: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Experiment"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    experiments_results_retrieve: {
        parameters: {
            query?: {
                /** @description the statistics (default bayesian) */
                method?: "bayesian" | "frequentist";
                /** @description frequentist only: always-valid intervals and p-values, safe to look at any time */
                sequential?: "true" | "false";
            };
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExperimentResults"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    surveys_list: {
        parameters: {
            query?: {
                /** @description results per page (default 100, at most 1000) */
                limit?: string;
                /** @description index of the first result (default 0) */
                offset?: string;
                /** @description surveys whose name contains this, ignoring case */
                search?: string;
                /** @description draft, running or stopped */
                status?: "draft" | "running" | "stopped";
                /** @description true: only archived surveys; default: only the others */
                archived?: boolean;
            };
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        count: number;
                        next: string | null;
                        previous: string | null;
                        results: components["schemas"]["Survey"][];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    surveys_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    description?: string;
                    /** @enum {unknown} */
                    type?: "popover" | "widget" | "api" | "external_survey";
                    questions: {
                        /** @enum {unknown} */
                        type: "open" | "link" | "rating" | "single_choice" | "multiple_choice";
                        /** @description made by the service; send it back to keep it (answers are stored by it) */
                        id?: string;
                        question: string;
                        description?: string | null;
                        /** @enum {unknown} */
                        descriptionContentType?: "html" | "text";
                        optional?: boolean;
                        buttonText?: string;
                        branching?: {
                            /** @description next_question, end, specific_question, response_based: next_question (default), end, specific_question (`index`), response_based (`responseValues`) */
                            type: string;
                            /** @description specific_question: the index of a later question */
                            index?: number;
                            /** @description response_based: answer → a later question’s index or "end". Keys: a single choice’s index ("0", "1", …); a rating’s bucket (negative, neutral, positive; detractors, passives, promoters for 0–10) */
                            responseValues?: {
                                [key: string]: number | string;
                            };
                        } | null;
                        /** @description link questions: an http(s) or mailto URL */
                        link?: string | null;
                        /**
                         * @description rating questions: number (scale 5, 7, 10) or emoji (scale 2, 3, 5)
                         * @enum {unknown}
                         */
                        display?: "number" | "emoji";
                        /** @description rating questions: 2, 3, 5, 7 or 10 (10 is 0–10, NPS) */
                        scale?: number;
                        lowerBoundLabel?: string;
                        upperBoundLabel?: string;
                        skipSubmitButton?: boolean;
                        choices?: string[];
                        /** @description choice questions: the last choice takes free text */
                        hasOpenChoice?: boolean;
                        shuffleOptions?: boolean;
                        translations?: {
                            [key: string]: unknown;
                        };
                        validation?: {
                            [key: string]: unknown;
                        }[];
                    }[];
                    appearance?: {
                        [key: string]: unknown;
                    } | null;
                    conditions?: {
                        url?: string | null;
                        /** @description regex, not_regex, exact, is_not, icontains, not_icontains */
                        urlMatchType?: string;
                        selector?: string | null;
                        seenSurveyWaitPeriodInDays?: number | null;
                        deviceTypes?: string[] | null;
                        /** @description regex, not_regex, exact, is_not, icontains, not_icontains */
                        deviceTypesMatchType?: string;
                        linkedFlagVariant?: string | null;
                        events?: {
                            repeatedActivation?: boolean;
                            values: {
                                name: string;
                                /** @description event property → the values it must match, and how */
                                propertyFilters?: {
                                    [key: string]: {
                                        values: (string | number | boolean)[];
                                        /** @description exact, is_not, icontains, not_icontains, regex, not_regex, gt, lt */
                                        operator: string;
                                    };
                                };
                                /** @description captured by a server (service-node, any SDK): the person becomes eligible at their next /flags; left out of the public list */
                                server_side?: boolean;
                            }[];
                        } | null;
                        cancelEvents?: {
                            values: {
                                name: string;
                            }[];
                        } | null;
                        actions?: {
                            values: {
                                [key: string]: unknown;
                            }[];
                        } | null;
                    } | null;
                    /** @description a flag that must be on (with `conditions.linkedFlagVariant`, that variant) */
                    linked_flag_key?: string | null;
                    /** @description who may see it: person-property conditions as a flag has them, each with its rollout */
                    targeting_flag_filters?: {
                        groups: {
                            properties?: {
                                [key: string]: unknown;
                            }[];
                            rollout_percentage?: number | null;
                        }[];
                    } | null;
                    /** @description the early access feature it asks about */
                    linked_early_access_feature_id?: string | null;
                    /** Format: date-time */
                    start_date?: string | null;
                    /** Format: date-time */
                    end_date?: string | null;
                    /** @description stops itself after this many completed responses */
                    responses_limit?: number | null;
                    /**
                     * @description once (default), recurring (every iteration_frequency_days, iteration_count times), always
                     * @enum {unknown}
                     */
                    schedule?: "once" | "recurring" | "always";
                    iteration_count?: number | null;
                    iteration_frequency_days?: number | null;
                    enable_partial_responses?: boolean;
                    archived?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Survey"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    surveys_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Survey"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    surveys_destroy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted; empty body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    surveys_partial_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    description?: string;
                    /** @enum {unknown} */
                    type?: "popover" | "widget" | "api" | "external_survey";
                    questions?: {
                        /** @enum {unknown} */
                        type: "open" | "link" | "rating" | "single_choice" | "multiple_choice";
                        /** @description made by the service; send it back to keep it (answers are stored by it) */
                        id?: string;
                        question: string;
                        description?: string | null;
                        /** @enum {unknown} */
                        descriptionContentType?: "html" | "text";
                        optional?: boolean;
                        buttonText?: string;
                        branching?: {
                            /** @description next_question, end, specific_question, response_based: next_question (default), end, specific_question (`index`), response_based (`responseValues`) */
                            type: string;
                            /** @description specific_question: the index of a later question */
                            index?: number;
                            /** @description response_based: answer → a later question’s index or "end". Keys: a single choice’s index ("0", "1", …); a rating’s bucket (negative, neutral, positive; detractors, passives, promoters for 0–10) */
                            responseValues?: {
                                [key: string]: number | string;
                            };
                        } | null;
                        /** @description link questions: an http(s) or mailto URL */
                        link?: string | null;
                        /**
                         * @description rating questions: number (scale 5, 7, 10) or emoji (scale 2, 3, 5)
                         * @enum {unknown}
                         */
                        display?: "number" | "emoji";
                        /** @description rating questions: 2, 3, 5, 7 or 10 (10 is 0–10, NPS) */
                        scale?: number;
                        lowerBoundLabel?: string;
                        upperBoundLabel?: string;
                        skipSubmitButton?: boolean;
                        choices?: string[];
                        /** @description choice questions: the last choice takes free text */
                        hasOpenChoice?: boolean;
                        shuffleOptions?: boolean;
                        translations?: {
                            [key: string]: unknown;
                        };
                        validation?: {
                            [key: string]: unknown;
                        }[];
                    }[];
                    appearance?: {
                        [key: string]: unknown;
                    } | null;
                    conditions?: {
                        url?: string | null;
                        /** @description regex, not_regex, exact, is_not, icontains, not_icontains */
                        urlMatchType?: string;
                        selector?: string | null;
                        seenSurveyWaitPeriodInDays?: number | null;
                        deviceTypes?: string[] | null;
                        /** @description regex, not_regex, exact, is_not, icontains, not_icontains */
                        deviceTypesMatchType?: string;
                        linkedFlagVariant?: string | null;
                        events?: {
                            repeatedActivation?: boolean;
                            values: {
                                name: string;
                                /** @description event property → the values it must match, and how */
                                propertyFilters?: {
                                    [key: string]: {
                                        values: (string | number | boolean)[];
                                        /** @description exact, is_not, icontains, not_icontains, regex, not_regex, gt, lt */
                                        operator: string;
                                    };
                                };
                                /** @description captured by a server (service-node, any SDK): the person becomes eligible at their next /flags; left out of the public list */
                                server_side?: boolean;
                            }[];
                        } | null;
                        cancelEvents?: {
                            values: {
                                name: string;
                            }[];
                        } | null;
                        actions?: {
                            values: {
                                [key: string]: unknown;
                            }[];
                        } | null;
                    } | null;
                    /** @description a flag that must be on (with `conditions.linkedFlagVariant`, that variant) */
                    linked_flag_key?: string | null;
                    /** @description who may see it: person-property conditions as a flag has them, each with its rollout */
                    targeting_flag_filters?: {
                        groups: {
                            properties?: {
                                [key: string]: unknown;
                            }[];
                            rollout_percentage?: number | null;
                        }[];
                    } | null;
                    /** @description the early access feature it asks about */
                    linked_early_access_feature_id?: string | null;
                    /** Format: date-time */
                    start_date?: string | null;
                    /** Format: date-time */
                    end_date?: string | null;
                    /** @description stops itself after this many completed responses */
                    responses_limit?: number | null;
                    /**
                     * @description once (default), recurring (every iteration_frequency_days, iteration_count times), always
                     * @enum {unknown}
                     */
                    schedule?: "once" | "recurring" | "always";
                    iteration_count?: number | null;
                    iteration_frequency_days?: number | null;
                    enable_partial_responses?: boolean;
                    archived?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Survey"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    surveys_launch_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Survey"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    surveys_stop_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Survey"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    public_surveys_retrieve: {
        parameters: {
            query?: {
                /** @description the project token */
                token?: string;
                api_key?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PublicSurveyList"];
                };
            };
            /** @description not modified */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    surveys_results_retrieve: {
        parameters: {
            query?: {
                /** @description from this date (`2026-01-31`, UTC), date-time, or time ago (`-7d`, `-12h`), inclusive */
                date_from?: string;
                /** @description until this date (the whole day counts), date-time (exclusive), or time ago */
                date_to?: string;
                /** @description only people whose current person property `property_key` is `property_value` */
                property_key?: string;
                /** @description compared as text: `3` matches the number 3 and the text "3" */
                property_value?: string;
                /** @description only events and responses sent with this flag (`$feature/<flag>`) at `variant` */
                variant_flag?: string;
                /** @description a variant key, or `true` / `false` for a boolean flag */
                variant?: string;
                /** @description index of the first open answer listed (default 0) */
                answers_offset?: string;
                /** @description open answers listed per question (default 20, at most 100) */
                answers_limit?: string;
                /** @description page this question’s answers only (`answers_offset` applies to it; the others list their first page) */
                answers_question?: string;
            };
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SurveyResults"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    error_tracking_issues_list: {
        parameters: {
            query?: {
                /** @description results per page (default 100, at most 1000) */
                limit?: string;
                /** @description index of the first result (default 0) */
                offset?: string;
                /** @description active | resolved (occurring again reopens it as a regression) | suppressed (still recorded, no webhooks) */
                status?: "active" | "resolved" | "suppressed";
                /** @description descending; default last_seen */
                order_by?: "last_seen" | "occurrences" | "people";
                /** @description in the name or description, ignoring case */
                search?: string;
            };
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        count: number;
                        next: string | null;
                        previous: string | null;
                        results: components["schemas"]["ErrorIssue"][];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    error_tracking_issues_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorIssueDetail"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    error_tracking_issues_partial_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * IssueStatus
                     * @description active | resolved (occurring again reopens it as a regression) | suppressed (still recorded, no webhooks)
                     * @enum {unknown}
                     */
                    status?: "active" | "resolved" | "suppressed";
                    name?: string;
                    description?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorIssue"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    error_tracking_issues_volume_retrieve: {
        parameters: {
            query?: {
                /** @description days up to today, UTC (default 14) */
                days?: number;
            };
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IssueVolume"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    error_tracking_issues_events_list: {
        parameters: {
            query?: {
                /** @description results per page (default 100, at most 1000) */
                limit?: string;
                /** @description index of the first result (default 0) */
                offset?: string;
            };
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        count: number;
                        next: string | null;
                        previous: string | null;
                        results: components["schemas"]["ErrorEvent"][];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    error_tracking_issues_people_list: {
        parameters: {
            query?: {
                /** @description results per page (default 100, at most 1000) */
                limit?: string;
                /** @description index of the first result (default 0) */
                offset?: string;
            };
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        count: number;
                        next: string | null;
                        previous: string | null;
                        results: components["schemas"]["AffectedPerson"][];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    error_tracking_issues_merge_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the issues to merge into this one (they are deleted) */
                    ids: string[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorIssue"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    error_tracking_sourcemaps_list: {
        parameters: {
            query?: {
                /** @description results per page (default 100, at most 1000) */
                limit?: string;
                /** @description index of the first result (default 0) */
                offset?: string;
                /** @description only the maps of this release */
                release?: string;
            };
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        count: number;
                        next: string | null;
                        previous: string | null;
                        results: {
                            /** Format: uuid */
                            id: string;
                            release: string;
                            /** @description the minified file’s URL, or `~/path` for that path on any origin */
                            url: string;
                            /** Format: date-time */
                            created_at: string;
                            /** @description bytes stored (the map, and the minified file when it was sent) */
                            size: number;
                        }[];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    error_tracking_sourcemaps_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the release the minified file belongs to (an event’s `$release`) */
                    release: string;
                    /** @description the minified file’s URL as stack frames name it, or `~/path` (e.g. `~/assets/index-3f9a1c.js`) for that path on any origin */
                    url: string;
                    /** @description the source map (v3), as JSON text */
                    map: string;
                    /** @description the minified file */
                    source?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        release: string;
                        /** @description the minified file’s URL, or `~/path` for that path on any origin */
                        url: string;
                        /** Format: date-time */
                        created_at: string;
                        /** @description bytes stored (the map, and the minified file when it was sent) */
                        size: number;
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    error_tracking_sourcemaps_destroy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted; empty body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    s_create: {
        parameters: {
            query?: {
                /** @description the project token (or `api_key`; also accepted in the body) */
                token?: string;
                /** @description `gzip`, `gzip-js` or `base64`; gzip is also detected by its magic bytes */
                compression?: string;
                /** @description `1`: answer 204 instead of 200 */
                beacon?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description `$snapshot` events (one, a list, or `{api_key, batch: [...]}`), each with `properties.$snapshot_data` (a list of rrweb events, per-event compressed ones `cv: '2024-10'` too), `$session_id`, `$window_id`; JSON, gzip, base64 or a `data=` form */
        requestBody: {
            content: {
                "application/json": unknown;
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {number} */
                        status: 1;
                        /** @description events not stored, each with why (`attr`: `batch__<index>`); only when there are some */
                        refused?: components["schemas"]["Error"][];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    session_recording_settings_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionRecordingSettings"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    session_recording_settings_partial_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description record sessions (off by default) */
                    enabled?: boolean;
                    /** @description share of sessions recorded, 0 to 1 (sent to clients with two decimals) */
                    sample_rate?: number;
                    /** @description nothing is sent until a session lasts this long */
                    minimum_duration_ms?: number;
                    /** SessionRecordingLinkedFlag */
                    linked_flag?: {
                        /** @description a live flag of the project's */
                        key: string;
                        /** @description record only when the flag gives this variant; null: whenever it is on */
                        variant: string | null;
                    } | null;
                    /** @description mask every text of the page (inputs and passwords are always masked) */
                    mask_all_text?: boolean;
                    /** @description CSS selector of elements whose text is masked */
                    mask_text_selector?: string | null;
                    /** @description CSS selector of elements not recorded (a placeholder of their size) */
                    block_selector?: string | null;
                    /** @description record console logs */
                    console_logs?: boolean;
                    /** @description record network timings (no payloads) */
                    network_timings?: boolean;
                    /** @description record canvas elements */
                    record_canvas?: boolean;
                    url_triggers?: {
                        /** @description a regular expression (RE2) searched in the page URL */
                        url: string;
                        /** @enum {string} */
                        matching: "regex";
                    }[];
                    url_blocklist?: {
                        /** @description a regular expression (RE2) searched in the page URL */
                        url: string;
                        /** @enum {string} */
                        matching: "regex";
                    }[];
                    event_triggers?: string[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionRecordingSettings"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    session_recordings_list: {
        parameters: {
            query?: {
                /** @description results per page (default 100, at most 1000) */
                limit?: string;
                /** @description index of the first result (default 0) */
                offset?: string;
                /** @description the person's id, as the persons API names them */
                person_id?: string;
                /** @description the distinct id the session was recorded under */
                distinct_id?: string;
                /** @description started from this date (`2026-01-31`, UTC), date-time, or time ago (`-7d`, `-12h`), inclusive */
                date_from?: string;
                /** @description started before this date (the whole day counts), date-time, or time ago, exclusive */
                date_to?: string;
                /** @description lasted at least this many seconds */
                duration_min?: string;
                /** @description lasted at most this many seconds */
                duration_max?: string;
                /** @description `true`: with exceptions or console errors; `false`: without */
                has_errors?: string;
                /** @description visited a URL containing this, ignoring case */
                url?: string;
                /** @description an event of the session had this flag on (`$feature/<flag>`), or `variant` with `variant` */
                flag?: string;
                /** @description the variant of `flag` (`true` for a boolean flag on) */
                variant?: string;
            };
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionRecordingList"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    session_recordings_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionRecordingDetail"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    session_recordings_destroy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted; empty body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    session_recordings_snapshots_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description plain rrweb events */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionRecordingSnapshots"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    session_recordings_events_list: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionRecordingEvents"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    llm_generations_list: {
        parameters: {
            query?: {
                /** @description exact model id, as sent (`$ai_model`) */
                model?: string;
                /** @description `openai`, `anthropic`, … */
                provider?: string;
                /** @description generations of one trace */
                trace_id?: string;
                /** @description a person's uuid: generations of any of their distinct ids */
                person_id?: string;
                /** @description generations of one distinct id */
                distinct_id?: string;
                /** @description `true` or `false` */
                is_error?: string;
                /** @description a flag key: generations made with it on (its `$feature/<key>` property) */
                flag?: string;
                /** @description with `flag`: that variant only */
                variant?: string;
                /** @description cost in USD at least this */
                cost_min?: string;
                /** @description `YYYY-MM-DD`, an ISO date-time or `-7d` / `-24h` */
                date_from?: string;
                /** @description `YYYY-MM-DD` (that whole day), an ISO date-time or `-1h` */
                date_to?: string;
                /** @description results per page (default 100, at most 1000) */
                limit?: string;
                /** @description index of the first result (default 0) */
                offset?: string;
            };
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LlmGenerationPage"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    llm_traces_list: {
        parameters: {
            query?: {
                /** @description a person's uuid: generations of any of their distinct ids */
                person_id?: string;
                /** @description generations of one distinct id */
                distinct_id?: string;
                /** @description traces with a generation of this model */
                model?: string;
                /** @description `true`: traces with an error; `false`: traces without */
                is_error?: string;
                /** @description traces with an event from then: `YYYY-MM-DD`, an ISO date-time or `-7d` */
                date_from?: string;
                /** @description `YYYY-MM-DD` (that whole day), an ISO date-time or `-1h` */
                date_to?: string;
                /** @description results per page (default 100, at most 1000) */
                limit?: string;
                /** @description index of the first result (default 0) */
                offset?: string;
            };
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LlmTraceSummaryPage"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    llm_traces_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                trace_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LlmTrace"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    llm_usage_retrieve: {
        parameters: {
            query?: {
                /** @description exact model id, as sent (`$ai_model`) */
                model?: string;
                /** @description `openai`, `anthropic`, … */
                provider?: string;
                /** @description generations of one trace */
                trace_id?: string;
                /** @description a person's uuid: generations of any of their distinct ids */
                person_id?: string;
                /** @description generations of one distinct id */
                distinct_id?: string;
                /** @description `true` or `false` */
                is_error?: string;
                /** @description a flag key: generations made with it on (its `$feature/<key>` property) */
                flag?: string;
                /** @description with `flag`: that variant only */
                variant?: string;
                /** @description cost in USD at least this */
                cost_min?: string;
                /** @description `YYYY-MM-DD`, an ISO date-time or `-7d` / `-24h` */
                date_from?: string;
                /** @description `YYYY-MM-DD` (that whole day), an ISO date-time or `-1h` */
                date_to?: string;
                /** @description `day` (the default) or `hour` */
                interval?: string;
                /** @description `model` (the default), `provider`, or `flag` (with `flag=<key>`: one series per variant) */
                by?: string;
            };
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LlmUsage"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    llm_prices_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LlmPrices"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    llm_prices_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    prices: {
                        provider: string;
                        /** @description exact id; dated snapshots of it (`<model>-…`) match too */
                        model: string;
                        /** @description USD per million input tokens */
                        input: number;
                        /** @description USD per million output tokens */
                        output: number;
                        /** @description USD per million cached input tokens read */
                        cache_read?: number;
                        /** @description USD per million input tokens written to the cache */
                        cache_write?: number;
                    }[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LlmPrices"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    i_v0_ai_otel_create: {
        parameters: {
            query?: {
                /** @description the project token, when not sent as a Bearer token */
                token?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description an OTLP `ExportTraceServiceRequest`: `{"resourceSpans": [...]}` (JSON), or its protobuf encoding */
        requestBody: {
            content: {
                "application/json": unknown;
                "application/x-protobuf": unknown;
                "application/protobuf": unknown;
            };
        };
        responses: {
            /** @description an `ExportTraceServiceResponse` (no bytes in protobuf) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    i_v0_ai_otel_v1_traces_create: {
        parameters: {
            query?: {
                /** @description the project token, when not sent as a Bearer token */
                token?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description an OTLP `ExportTraceServiceRequest`: `{"resourceSpans": [...]}` (JSON), or its protobuf encoding */
        requestBody: {
            content: {
                "application/json": unknown;
                "application/x-protobuf": unknown;
                "application/protobuf": unknown;
            };
        };
        responses: {
            /** @description an `ExportTraceServiceResponse` (no bytes in protobuf) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    llm_prompts_list: {
        parameters: {
            query?: {
                /** @description results per page (default 100, at most 1000) */
                limit?: string;
                /** @description index of the first result (default 0) */
                offset?: string;
                /** @description prompts whose name contains this, ignoring case */
                search?: string;
            };
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        count: number;
                        next: string | null;
                        previous: string | null;
                        results: components["schemas"]["LlmPrompt"][];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    llm_prompts_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description letters, digits, _ . - */
                    name: string;
                    /** @description the template; `{{variable}}` is filled by Prompts.compile() */
                    prompt: string;
                    /** @description model settings kept with the version (model, temperature, …), given back as they are */
                    config?: {
                        [key: string]: unknown;
                    } | null;
                    /** @description labels moved onto this version */
                    labels?: string[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LlmPrompt"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    llm_prompts_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LlmPrompt"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    llm_prompts_destroy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted; empty body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    llm_prompts_versions_list: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LlmPromptVersionList"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    llm_prompts_versions_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the template; `{{variable}}` is filled by Prompts.compile() */
                    prompt: string;
                    /** @description model settings kept with the version (model, temperature, …), given back as they are */
                    config?: {
                        [key: string]: unknown;
                    } | null;
                    /** @description labels moved onto this version */
                    labels?: string[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LlmPrompt"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    llm_prompts_labels_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                id: string;
                /** @description such as production; letters, digits, _ . - */
                label: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the version the label names */
                    version: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LlmPrompt"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    llm_prompts_labels_destroy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                id: string;
                /** @description such as production; letters, digits, _ . - */
                label: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LlmPrompt"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    llm_prompts_by_name_retrieve: {
        parameters: {
            query?: {
                /** @description the project token */
                token?: string;
                /** @description a version number (wins over label) */
                version?: string;
                /** @description a label, such as production */
                label?: string;
            };
            header?: never;
            path: {
                /** @description letters, digits, _ . - */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LlmPromptResolved"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    llm_prompts_resolved_list: {
        parameters: {
            query?: {
                /** @description the project token */
                token?: string;
                /** @description only prompts with this label, at its version */
                label?: string;
                /** @description full: every field (the only form served) */
                content?: string;
                /** @description results per page (default 100, at most 1000) */
                limit?: string;
                /** @description index of the first result (default 0) */
                offset?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        count: number;
                        next: string | null;
                        previous: string | null;
                        results: components["schemas"]["LlmPromptResolved"][];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cohorts_list: {
        parameters: {
            query?: {
                /** @description results per page (default 100, at most 1000) */
                limit?: string;
                /** @description index of the first result (default 0) */
                offset?: string;
            };
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        count: number;
                        next: string | null;
                        previous: string | null;
                        results: components["schemas"]["Cohort"][];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cohorts_create: {
        parameters: {
            query?: {
                /** @description the name of a static cohort created from a text/csv body */
                name?: string;
            };
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        /** @description a static cohort: `{name, is_static: true, distinct_ids}` (or a text/csv body with `?name=`); a dynamic one: `{name, filters}` */
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    description?: string;
                    is_static?: boolean;
                    /** CohortFilters */
                    filters?: {
                        /** @description a property group `{type: "AND"|"OR", values: [...]}` whose values are all groups or all leaves: person properties, `{type: "cohort", value: id}`, or `{type: "behavioral", value: "performed_event", key: event, operator: "gte", operator_value: N, time_value: D, time_interval: "day"|"week"|"month", event_filters?: [...]}` */
                        properties?: unknown;
                    } & {
                        [key: string]: unknown;
                    };
                    /** @description distinct ids (up to 1,000,000 a cohort; more is 413) */
                    distinct_ids?: string[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cohort"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cohorts_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cohort"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cohorts_destroy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted; empty body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cohorts_partial_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    description?: string;
                    /** CohortFilters */
                    filters?: {
                        /** @description a property group `{type: "AND"|"OR", values: [...]}` whose values are all groups or all leaves: person properties, `{type: "cohort", value: id}`, or `{type: "behavioral", value: "performed_event", key: event, operator: "gte", operator_value: N, time_value: D, time_interval: "day"|"week"|"month", event_filters?: [...]}` */
                        properties?: unknown;
                    } & {
                        [key: string]: unknown;
                    };
                    /** @description true deletes (409 while a flag or a cohort uses it), false restores */
                    deleted?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cohort"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cohorts_members_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        /** @description JSON, or a text/csv body */
        requestBody: {
            content: {
                "application/json": {
                    /** @description distinct ids (up to 1,000,000 a cohort; more is 413) */
                    distinct_ids: string[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cohort"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cohorts_members_destroy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        /** @description JSON, or a text/csv body */
        requestBody: {
            content: {
                "application/json": {
                    /** @description distinct ids (up to 1,000,000 a cohort; more is 413) */
                    distinct_ids: string[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cohort"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cohorts_persons_list: {
        parameters: {
            query?: {
                /** @description results per page (default 100, at most 1000) */
                limit?: string;
                /** @description index of the first result (default 0) */
                offset?: string;
            };
            header?: never;
            path: {
                project_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        count: number;
                        next: string | null;
                        previous: string | null;
                        results: components["schemas"]["CohortMember"][];
                    };
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    flags_create: {
        parameters: {
            query?: {
                v?: string;
                config?: string;
                compression?: string;
                token?: string;
                only_evaluate_survey_feature_flags?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    decide_create: {
        parameters: {
            query?: {
                v?: string;
                config?: string;
                compression?: string;
                token?: string;
                only_evaluate_survey_feature_flags?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    array_config_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    array_config_js_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description JavaScript */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    flags_definitions_retrieve: {
        parameters: {
            query?: {
                /** @description the project token (required) */
                token?: string;
                send_cohorts?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    feature_flag_local_evaluation_retrieve: {
        parameters: {
            query?: {
                /** @description the project token (required) */
                token?: string;
                send_cohorts?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    ofrep_evaluate_flag: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                key: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description {targetingKey, groups?, groupProperties?, ...attributes} */
                    context?: {
                        [key: string]: unknown;
                    };
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        key: string;
                        /** @description absent: use the default in code */
                        value?: unknown;
                        reason: string;
                        variant?: string;
                        metadata: {
                            [key: string]: string | number | boolean;
                        };
                    };
                };
            };
            /** @description An OFREP error: `{key?, errorCode, errorDetails}` (OFREP's own shape, not `Error`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OfrepError"];
                };
            };
            /** @description An OFREP error: `{key?, errorCode, errorDetails}` (OFREP's own shape, not `Error`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OfrepError"];
                };
            };
            /** @description An OFREP error: `{key?, errorCode, errorDetails}` (OFREP's own shape, not `Error`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OfrepError"];
                };
            };
            /** @description An OFREP error: `{key?, errorCode, errorDetails}` (OFREP's own shape, not `Error`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OfrepError"];
                };
            };
            /** @description An OFREP error: `{key?, errorCode, errorDetails}` (OFREP's own shape, not `Error`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OfrepError"];
                };
            };
            /** @description An OFREP error: `{key?, errorCode, errorDetails}` (OFREP's own shape, not `Error`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OfrepError"];
                };
            };
            /** @description An OFREP error: `{key?, errorCode, errorDetails}` (OFREP's own shape, not `Error`) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OfrepError"];
                };
            };
            /** @description Default Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OfrepServerError"];
                };
            };
            /** @description An OFREP error: `{key?, errorCode, errorDetails}` (OFREP's own shape, not `Error`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OfrepError"];
                };
            };
        };
    };
    ofrep_evaluate_flags: {
        parameters: {
            query?: {
                flagConfigEtag?: string;
                flagConfigLastModified?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description {targetingKey, groups?, groupProperties?, ...attributes} */
                    context?: {
                        [key: string]: unknown;
                    };
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OfrepBulkEvaluation"];
                };
            };
            /** @description An OFREP error: `{key?, errorCode, errorDetails}` (OFREP's own shape, not `Error`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OfrepError"];
                };
            };
            /** @description An OFREP error: `{key?, errorCode, errorDetails}` (OFREP's own shape, not `Error`) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OfrepError"];
                };
            };
            /** @description An OFREP error: `{key?, errorCode, errorDetails}` (OFREP's own shape, not `Error`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OfrepError"];
                };
            };
            /** @description An OFREP error: `{key?, errorCode, errorDetails}` (OFREP's own shape, not `Error`) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OfrepError"];
                };
            };
            /** @description An OFREP error: `{key?, errorCode, errorDetails}` (OFREP's own shape, not `Error`) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OfrepError"];
                };
            };
            /** @description An OFREP error: `{key?, errorCode, errorDetails}` (OFREP's own shape, not `Error`) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OfrepError"];
                };
            };
            /** @description Default Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OfrepServerError"];
                };
            };
            /** @description An OFREP error: `{key?, errorCode, errorDetails}` (OFREP's own shape, not `Error`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OfrepError"];
                };
            };
        };
    };
    flags_stream_retrieve: {
        parameters: {
            query?: {
                /** @description the project token (required) */
                token?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description text/event-stream: `: connected`, then `refetchEvaluation` notices and a `: ping` comment every 25 s */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{type, code, detail, attr}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
type FlattenedDeepRequired<T> = {
    [K in keyof T]-?: FlattenedDeepRequired<T[K] extends unknown[] | undefined | null ? Extract<T[K], unknown[]>[number] : T[K]>;
};
type ReadonlyArray<T> = [
    Exclude<T, undefined>
] extends [
    unknown[]
] ? Readonly<Exclude<T, undefined>> : Readonly<Exclude<T, undefined>[]>;
export const pathsApiProjectsProject_idActivity_logGetParametersQueryActor_typeAnyOf0Values: ReadonlyArray<FlattenedDeepRequired<paths>["/api/projects/{project_id}/activity_log"]["get"]["parameters"]["query"]["actor_type"]> = ["user"];
export const pathsApiProjectsProject_idActivity_logGetParametersQueryActor_typeAnyOf1Values: ReadonlyArray<FlattenedDeepRequired<paths>["/api/projects/{project_id}/activity_log"]["get"]["parameters"]["query"]["actor_type"]> = ["personal_api_key"];
export const pathsApiProjectsProject_idActivity_logGetParametersQueryActor_typeAnyOf2Values: ReadonlyArray<FlattenedDeepRequired<paths>["/api/projects/{project_id}/activity_log"]["get"]["parameters"]["query"]["actor_type"]> = ["command_line"];
export const pathsApiOrganizationActivity_logGetParametersQueryActor_typeAnyOf0Values: ReadonlyArray<FlattenedDeepRequired<paths>["/api/organization/activity_log"]["get"]["parameters"]["query"]["actor_type"]> = ["user"];
export const pathsApiOrganizationActivity_logGetParametersQueryActor_typeAnyOf1Values: ReadonlyArray<FlattenedDeepRequired<paths>["/api/organization/activity_log"]["get"]["parameters"]["query"]["actor_type"]> = ["personal_api_key"];
export const pathsApiOrganizationActivity_logGetParametersQueryActor_typeAnyOf2Values: ReadonlyArray<FlattenedDeepRequired<paths>["/api/organization/activity_log"]["get"]["parameters"]["query"]["actor_type"]> = ["command_line"];
export const pathsApiOrganizationMembersUser_idPatchRequestBodyContentApplicationJsonRoleAnyOf0Values: ReadonlyArray<FlattenedDeepRequired<paths>["/api/organization/members/{user_id}"]["patch"]["requestBody"]["content"]["application/json"]["role"]> = ["viewer"];
export const pathsApiOrganizationMembersUser_idPatchRequestBodyContentApplicationJsonRoleAnyOf1Values: ReadonlyArray<FlattenedDeepRequired<paths>["/api/organization/members/{user_id}"]["patch"]["requestBody"]["content"]["application/json"]["role"]> = ["member"];
export const pathsApiOrganizationMembersUser_idPatchRequestBodyContentApplicationJsonRoleAnyOf2Values: ReadonlyArray<FlattenedDeepRequired<paths>["/api/organization/members/{user_id}"]["patch"]["requestBody"]["content"]["application/json"]["role"]> = ["admin"];
export const pathsApiOrganizationMembersUser_idPatchRequestBodyContentApplicationJsonRoleAnyOf3Values: ReadonlyArray<FlattenedDeepRequired<paths>["/api/organization/members/{user_id}"]["patch"]["requestBody"]["content"]["application/json"]["role"]> = ["owner"];
export const pathsApiOrganizationInvitesPostRequestBodyContentApplicationJsonRoleAnyOf0Values: ReadonlyArray<FlattenedDeepRequired<paths>["/api/organization/invites"]["post"]["requestBody"]["content"]["application/json"]["role"]> = ["viewer"];
export const pathsApiOrganizationInvitesPostRequestBodyContentApplicationJsonRoleAnyOf1Values: ReadonlyArray<FlattenedDeepRequired<paths>["/api/organization/invites"]["post"]["requestBody"]["content"]["application/json"]["role"]> = ["member"];
export const pathsApiOrganizationInvitesPostRequestBodyContentApplicationJsonRoleAnyOf2Values: ReadonlyArray<FlattenedDeepRequired<paths>["/api/organization/invites"]["post"]["requestBody"]["content"]["application/json"]["role"]> = ["admin"];
export const pathsApiOrganizationInvitesPostRequestBodyContentApplicationJsonRoleAnyOf3Values: ReadonlyArray<FlattenedDeepRequired<paths>["/api/organization/invites"]["post"]["requestBody"]["content"]["application/json"]["role"]> = ["owner"];
export const pathsApiProjectsProject_idFeature_flagsGetParametersQueryTypeValues: ReadonlyArray<FlattenedDeepRequired<paths>["/api/projects/{project_id}/feature_flags"]["get"]["parameters"]["query"]["type"]> = ["boolean", "multivariant"];
export const pathsEGetResponses200ContentApplicationJsonStatusValues: ReadonlyArray<FlattenedDeepRequired<paths>["/e"]["get"]["responses"]["200"]["content"]["application/json"]["status"]> = [1];
export const pathsEPostResponses200ContentApplicationJsonStatusValues: ReadonlyArray<FlattenedDeepRequired<paths>["/e"]["post"]["responses"]["200"]["content"]["application/json"]["status"]> = [1];
export const pathsIV0EGetResponses200ContentApplicationJsonStatusValues: ReadonlyArray<FlattenedDeepRequired<paths>["/i/v0/e"]["get"]["responses"]["200"]["content"]["application/json"]["status"]> = [1];
export const pathsIV0EPostResponses200ContentApplicationJsonStatusValues: ReadonlyArray<FlattenedDeepRequired<paths>["/i/v0/e"]["post"]["responses"]["200"]["content"]["application/json"]["status"]> = [1];
export const pathsCaptureGetResponses200ContentApplicationJsonStatusValues: ReadonlyArray<FlattenedDeepRequired<paths>["/capture"]["get"]["responses"]["200"]["content"]["application/json"]["status"]> = [1];
export const pathsCapturePostResponses200ContentApplicationJsonStatusValues: ReadonlyArray<FlattenedDeepRequired<paths>["/capture"]["post"]["responses"]["200"]["content"]["application/json"]["status"]> = [1];
export const pathsBatchGetResponses200ContentApplicationJsonStatusValues: ReadonlyArray<FlattenedDeepRequired<paths>["/batch"]["get"]["responses"]["200"]["content"]["application/json"]["status"]> = [1];
export const pathsBatchPostResponses200ContentApplicationJsonStatusValues: ReadonlyArray<FlattenedDeepRequired<paths>["/batch"]["post"]["responses"]["200"]["content"]["application/json"]["status"]> = [1];
export const pathsIV0AiBatchGetResponses200ContentApplicationJsonStatusValues: ReadonlyArray<FlattenedDeepRequired<paths>["/i/v0/ai/batch"]["get"]["responses"]["200"]["content"]["application/json"]["status"]> = [1];
export const pathsIV0AiBatchPostResponses200ContentApplicationJsonStatusValues: ReadonlyArray<FlattenedDeepRequired<paths>["/i/v0/ai/batch"]["post"]["responses"]["200"]["content"]["application/json"]["status"]> = [1];
export const pathsApiProjectsProject_idEvent_countsGetParametersQueryIntervalValues: ReadonlyArray<FlattenedDeepRequired<paths>["/api/projects/{project_id}/event_counts"]["get"]["parameters"]["query"]["interval"]> = ["day", "hour"];
export const pathsApiProjectsProject_idEarly_access_featurePostRequestBodyContentApplicationJsonStageValues: ReadonlyArray<FlattenedDeepRequired<paths>["/api/projects/{project_id}/early_access_feature"]["post"]["requestBody"]["content"]["application/json"]["stage"]> = ["draft", "concept", "alpha", "beta", "general-availability", "archived"];
export const pathsApiProjectsProject_idEarly_access_featureIdPatchRequestBodyContentApplicationJsonStageValues: ReadonlyArray<FlattenedDeepRequired<paths>["/api/projects/{project_id}/early_access_feature/{id}"]["patch"]["requestBody"]["content"]["application/json"]["stage"]> = ["draft", "concept", "alpha", "beta", "general-availability", "archived"];
export const pathsApiProjectsProject_idExperimentsPostRequestBodyContentApplicationJsonMetricsKindValues: ReadonlyArray<FlattenedDeepRequired<paths>["/api/projects/{project_id}/experiments"]["post"]["requestBody"]["content"]["application/json"]["metrics"]["kind"]> = ["conversion", "mean"];
export const pathsApiProjectsProject_idExperimentsPostRequestBodyContentApplicationJsonStatusValues: ReadonlyArray<FlattenedDeepRequired<paths>["/api/projects/{project_id}/experiments"]["post"]["requestBody"]["content"]["application/json"]["status"]> = ["draft", "running"];
export const pathsApiProjectsProject_idExperimentsIdPatchRequestBodyContentApplicationJsonMetricsKindValues: ReadonlyArray<FlattenedDeepRequired<paths>["/api/projects/{project_id}/experiments/{id}"]["patch"]["requestBody"]["content"]["application/json"]["metrics"]["kind"]> = ["conversion", "mean"];
export const pathsApiProjectsProject_idExperimentsIdPatchRequestBodyContentApplicationJsonStatusValues: ReadonlyArray<FlattenedDeepRequired<paths>["/api/projects/{project_id}/experiments/{id}"]["patch"]["requestBody"]["content"]["application/json"]["status"]> = ["draft", "running", "complete"];
export const pathsApiProjectsProject_idExperimentsIdResultsGetParametersQueryMethodValues: ReadonlyArray<FlattenedDeepRequired<paths>["/api/projects/{project_id}/experiments/{id}/results"]["get"]["parameters"]["query"]["method"]> = ["bayesian", "frequentist"];
export const pathsApiProjectsProject_idExperimentsIdResultsGetParametersQuerySequentialValues: ReadonlyArray<FlattenedDeepRequired<paths>["/api/projects/{project_id}/experiments/{id}/results"]["get"]["parameters"]["query"]["sequential"]> = ["true", "false"];
export const pathsApiProjectsProject_idSurveysGetParametersQueryStatusValues: ReadonlyArray<FlattenedDeepRequired<paths>["/api/projects/{project_id}/surveys"]["get"]["parameters"]["query"]["status"]> = ["draft", "running", "stopped"];
export const pathsApiProjectsProject_idSurveysPostRequestBodyContentApplicationJsonTypeValues: ReadonlyArray<FlattenedDeepRequired<paths>["/api/projects/{project_id}/surveys"]["post"]["requestBody"]["content"]["application/json"]["type"]> = ["popover", "widget", "api", "external_survey"];
export const pathsApiProjectsProject_idSurveysPostRequestBodyContentApplicationJsonQuestionsTypeValues: ReadonlyArray<FlattenedDeepRequired<paths>["/api/projects/{project_id}/surveys"]["post"]["requestBody"]["content"]["application/json"]["questions"]["type"]> = ["open", "link", "rating", "single_choice", "multiple_choice"];
export const pathsApiProjectsProject_idSurveysPostRequestBodyContentApplicationJsonQuestionsDescriptionContentTypeValues: ReadonlyArray<FlattenedDeepRequired<paths>["/api/projects/{project_id}/surveys"]["post"]["requestBody"]["content"]["application/json"]["questions"]["descriptionContentType"]> = ["html", "text"];
export const pathsApiProjectsProject_idSurveysPostRequestBodyContentApplicationJsonQuestionsDisplayValues: ReadonlyArray<FlattenedDeepRequired<paths>["/api/projects/{project_id}/surveys"]["post"]["requestBody"]["content"]["application/json"]["questions"]["display"]> = ["number", "emoji"];
export const pathsApiProjectsProject_idSurveysPostRequestBodyContentApplicationJsonScheduleValues: ReadonlyArray<FlattenedDeepRequired<paths>["/api/projects/{project_id}/surveys"]["post"]["requestBody"]["content"]["application/json"]["schedule"]> = ["once", "recurring", "always"];
export const pathsApiProjectsProject_idSurveysIdPatchRequestBodyContentApplicationJsonTypeValues: ReadonlyArray<FlattenedDeepRequired<paths>["/api/projects/{project_id}/surveys/{id}"]["patch"]["requestBody"]["content"]["application/json"]["type"]> = ["popover", "widget", "api", "external_survey"];
export const pathsApiProjectsProject_idSurveysIdPatchRequestBodyContentApplicationJsonQuestionsTypeValues: ReadonlyArray<FlattenedDeepRequired<paths>["/api/projects/{project_id}/surveys/{id}"]["patch"]["requestBody"]["content"]["application/json"]["questions"]["type"]> = ["open", "link", "rating", "single_choice", "multiple_choice"];
export const pathsApiProjectsProject_idSurveysIdPatchRequestBodyContentApplicationJsonQuestionsDescriptionContentTypeValues: ReadonlyArray<FlattenedDeepRequired<paths>["/api/projects/{project_id}/surveys/{id}"]["patch"]["requestBody"]["content"]["application/json"]["questions"]["descriptionContentType"]> = ["html", "text"];
export const pathsApiProjectsProject_idSurveysIdPatchRequestBodyContentApplicationJsonQuestionsDisplayValues: ReadonlyArray<FlattenedDeepRequired<paths>["/api/projects/{project_id}/surveys/{id}"]["patch"]["requestBody"]["content"]["application/json"]["questions"]["display"]> = ["number", "emoji"];
export const pathsApiProjectsProject_idSurveysIdPatchRequestBodyContentApplicationJsonScheduleValues: ReadonlyArray<FlattenedDeepRequired<paths>["/api/projects/{project_id}/surveys/{id}"]["patch"]["requestBody"]["content"]["application/json"]["schedule"]> = ["once", "recurring", "always"];
export const pathsApiProjectsProject_idError_trackingIssuesGetParametersQueryStatusValues: ReadonlyArray<FlattenedDeepRequired<paths>["/api/projects/{project_id}/error_tracking/issues"]["get"]["parameters"]["query"]["status"]> = ["active", "resolved", "suppressed"];
export const pathsApiProjectsProject_idError_trackingIssuesGetParametersQueryOrder_byValues: ReadonlyArray<FlattenedDeepRequired<paths>["/api/projects/{project_id}/error_tracking/issues"]["get"]["parameters"]["query"]["order_by"]> = ["last_seen", "occurrences", "people"];
export const pathsApiProjectsProject_idError_trackingIssuesIdPatchRequestBodyContentApplicationJsonStatusValues: ReadonlyArray<FlattenedDeepRequired<paths>["/api/projects/{project_id}/error_tracking/issues/{id}"]["patch"]["requestBody"]["content"]["application/json"]["status"]> = ["active", "resolved", "suppressed"];
export const pathsSPostResponses200ContentApplicationJsonStatusValues: ReadonlyArray<FlattenedDeepRequired<paths>["/s"]["post"]["responses"]["200"]["content"]["application/json"]["status"]> = [1];
export const pathsApiProjectsProject_idSession_recording_settingsPatchRequestBodyContentApplicationJsonUrl_triggersMatchingValues: ReadonlyArray<FlattenedDeepRequired<paths>["/api/projects/{project_id}/session_recording_settings"]["patch"]["requestBody"]["content"]["application/json"]["url_triggers"]["matching"]> = ["regex"];
export const pathsApiProjectsProject_idSession_recording_settingsPatchRequestBodyContentApplicationJsonUrl_blocklistMatchingValues: ReadonlyArray<FlattenedDeepRequired<paths>["/api/projects/{project_id}/session_recording_settings"]["patch"]["requestBody"]["content"]["application/json"]["url_blocklist"]["matching"]> = ["regex"];
export const activityEntryActorTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ActivityEntry"]["actor"]["type"]> = ["user", "personal_api_key", "command_line"];
export const eventCountsIntervalValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["EventCounts"]["interval"]> = ["day", "hour"];
export const experimentStatusValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ExperimentStatus"]> = ["draft", "running", "complete"];
export const flagUseTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["FlagUse"]["type"]> = ["early_access_feature", "experiment", "survey"];
export const issueStatusValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["IssueStatus"]> = ["active", "resolved", "suppressed"];
export const issueVolumeIntervalValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["IssueVolume"]["interval"]> = ["day"];
export const methodValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["Method"]> = ["bayesian", "frequentist"];
export const metricKindValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["Metric"]["kind"]> = ["conversion", "mean"];
export const metricResultMetricKindValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["MetricResult"]["metric"]["kind"]> = ["conversion", "mean"];
export const roleValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["Role"]> = ["viewer", "member", "admin", "owner"];
export const scheduledChangeStatusValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ScheduledChange"]["status"]> = ["pending", "applied", "failed", "cancelled"];
export const sessionRecordingUrlTriggerMatchingValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["SessionRecordingUrlTrigger"]["matching"]> = ["regex"];
export const stageValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["Stage"]> = ["draft", "concept", "alpha", "beta", "general-availability", "archived"];
export const surveyQuestionTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["SurveyQuestion"]["type"]> = ["open", "link", "rating", "single_choice", "multiple_choice"];
export const surveyQuestionDescriptionContentTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["SurveyQuestion"]["descriptionContentType"]> = ["html", "text"];
export const surveyQuestionBranchingTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["SurveyQuestion"]["branching"]["type"]> = ["next_question", "end", "specific_question", "response_based"];
export const surveyQuestionDisplayValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["SurveyQuestion"]["display"]> = ["number", "emoji"];
export const surveyScheduleValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["SurveySchedule"]> = ["once", "recurring", "always"];
export const surveyStatusValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["SurveyStatus"]> = ["draft", "running", "stopped"];
export const surveyTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["SurveyType"]> = ["popover", "widget", "api", "external_survey"];
export const webhookKindValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["WebhookKind"]> = ["feature_flag.changed", "early_access.enrolled", "early_access.unenrolled", "early_access.stage_changed", "error.new_issue", "error.regressed"];
