package dev.idgen.samples;

import org.springframework.data.jpa.repository.JpaRepository;

/** The orders, by their idgen ID. */
interface OrderRepository extends JpaRepository<Order, Long> {}
