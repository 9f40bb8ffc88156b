/**
 * idgen's command-line tool: decode IDs under idgen's layout or another library's, plan the settings of a switch from
 * another library's Snowflake, and check a table for IDs idgen would issue again. Each command's logic runs in-process
 * through {@link dev.idgen.cli.IdgenCli#run}, so the tests need no JVM of their own.
 */
package dev.idgen.cli;
