-- The r2dbc profile's orders: the columns Hibernate creates for the JPA Order in the other profiles.
create table if not exists idgen_sample_orders (
    id bigint not null primary key,
    customer varchar(100) not null,
    amount numeric(12, 2) not null,
    created_at timestamp(6) with time zone not null
);
