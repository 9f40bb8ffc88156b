package com.example.r2dbc;

import org.springframework.data.repository.reactive.ReactiveCrudRepository;

public interface ShipmentRepository extends ReactiveCrudRepository<Shipment, Long> {}
