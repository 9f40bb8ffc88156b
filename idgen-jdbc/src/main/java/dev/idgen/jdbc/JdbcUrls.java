package dev.idgen.jdbc;

/**
 * JDBC URLs as they may be shown in logs and descriptions: without what may carry credentials.
 */
public final class JdbcUrls {

    private JdbcUrls() {}

    /**
     * @return the URL without a {@code user:password@} before the host, an Oracle-style {@code user/password@}, and
     *         the parameters after {@code ?} or {@code ;} (which may hold {@code password=}); null for null
     */
    public static String withoutCredentials(String url) {
        if (url == null) {
            return null;
        }
        String shown = url.replaceAll("//[^/@?;]*@", "//").replaceAll(":[^:/@?;]+/[^:/@?;]*@", ":@");
        int query = shown.indexOf('?');
        int semicolon = shown.indexOf(';');
        int parameters = query < 0 ? semicolon : semicolon < 0 ? query : Math.min(query, semicolon);
        return parameters < 0 ? shown : shown.substring(0, parameters);
    }
}
