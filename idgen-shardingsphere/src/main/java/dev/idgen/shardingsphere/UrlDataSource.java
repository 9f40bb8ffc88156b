package dev.idgen.shardingsphere;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A connection per call from a JDBC URL, for the standalone key generator: idgen's statements there are a worker id
 * lease renewal every few seconds or one per segment block, too few to be worth a pool, and a pool library would be
 * one more dependency the algorithm's props would have to configure.
 */
final class UrlDataSource implements DataSource {

    private final String url;
    private final String username;
    private final String password;

    UrlDataSource(String url, String username, String password) {
        this.url = url;
        this.username = username;
        this.password = password;
    }

    @Override
    public Connection getConnection() throws SQLException {
        return DriverManager.getConnection(url, username, password);
    }

    @Override
    public Connection getConnection(String user, String pass) throws SQLException {
        return DriverManager.getConnection(url, user, pass);
    }

    @Override
    public PrintWriter getLogWriter() {
        return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        // Nothing is logged through a writer.
    }

    @Override
    public void setLoginTimeout(int seconds) {
        // DriverManager's login timeout is global to the JVM: left alone.
    }

    @Override
    public int getLoginTimeout() {
        return 0;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException("no java.util.logging");
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        if (type.isInstance(this)) {
            return type.cast(this);
        }
        throw new SQLException("not a wrapper of " + type.getName());
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
        return type.isInstance(this);
    }

    @Override
    public String toString() {
        return "UrlDataSource[" + url + "]";
    }
}
