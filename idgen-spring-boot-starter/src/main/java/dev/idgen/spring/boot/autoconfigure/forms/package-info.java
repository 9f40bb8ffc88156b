/**
 * ID forms: how a generator's IDs are written as strings (number, crockford32, base62, public, shard) or issued by
 * a form of their own (uuid-v7, guid, object-id, flake128, simpleflake). Their settings, which every generator has
 * (Form, FormProperties, CountingPeriod), are in the core package.
 */
package dev.idgen.spring.boot.autoconfigure.forms;
