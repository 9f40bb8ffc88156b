package com.example.r2dbc;

import dev.idgen.spring.IdgenId;
import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

@Table("shipments")
public record Shipment(@Id @IdgenId("shipments") Long id, String address) {}
