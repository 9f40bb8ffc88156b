/**
 * The first application of docs/first-application.md: a shop whose purchase orders take their IDs from idgen. Built
 * and run by this module's tests on MariaDB and PostgreSQL, so the page shows code that runs as written.
 */
package com.example.shop;
